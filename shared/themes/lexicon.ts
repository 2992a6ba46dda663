import type { Locale } from '../locale.js';

/**
 * The words that read a comment as a person does, in each language (written as customers write them; the matcher
 * stems them as it stems the comment):
 * - `positive`, `negative`: opinion words, each worth 1 (a word listed in `mild` is worth half: "fila" is mostly said
 *   of a long one, "sem fila" is praise);
 * - `negators`: a word that turns the opinion of the next three words of its clause ("não chegou", "nunca recebi",
 *   "nada de chegar", "no llegó", "never arrived"): a negated opinion word counts the other way, a negated keyword with
 *   no opinion of its own is a complaint;
 * - `contrast`: a word that ends a clause ("mas", "pero", "but"): what follows speaks of what follows;
 * - `intensifiers`: a word that makes the next opinion word count half again ("muito", "super", "very");
 * - `generic`: words that never make a theme alone ("produto", "loja", "compra"): a keyword among them counts only
 *   with an opinion word within two words of it in its clause ("produto ruim", "ótimo produto");
 * - `arrival`: the words of a parcel's arrival ("chegou", "recebi", "prazo"): a mention of `delivery` only where the
 *   journey is not in a place ("a comida chegou fria" is not a delivery);
 * - `waiting`, `queuePlaces`: a place a queue forms at ("caixa", "caja", "checkout") after a word of waiting one's turn
 *   in its clause ("esperei 40 minutos no caixa") is where the customer waited: a mention of `wait`, not of the place's
 *   own theme ("paguei no caixa", "o caixa errou o troco" stay payment).
 */
export interface Lexicon {
  positive: readonly string[];
  negative: readonly string[];
  mild: readonly string[];
  negators: readonly string[];
  contrast: readonly string[];
  intensifiers: readonly string[];
  generic: readonly string[];
  arrival: readonly string[];
  waiting: readonly string[];
  queuePlaces: readonly string[];
}

/** A list written as one string, its entries separated by commas (a phrase keeps its spaces). */
const list = (text: string): string[] =>
  text
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean);

export const LEXICONS: Record<Locale, Lexicon> = {
  'pt-BR': {
    positive: list(`bom, boa, bons, ótimo, otimo, excelente, perfeito, perfeita, maravilhoso, maravilhosa, lindo, linda, amei,
      adorei, gostei, recomendo, rápido, rapida, rapidinho, rapidez, antes, certinho, top, show, incrível, impecável,
      educado, educada, simpático, simpática, atencioso, atenciosa, prestativo, prestativa, limpo, limpa, limpinho,
      limpíssimo, barato, baratinho, justo, conforme, confortável, delicioso, deliciosa, gostoso, gostosa, saboroso,
      fresquinho, quentinho, fácil, pontual, pontualidade, honesto, eficiente, ágil, resolveu, resolveram, parabéns,
      satisfeito, satisfeita, confiável, bem, superou, vale, qualidade, paciente, cuidadosa, cuidadoso, humana, intacta,
      protegido, potente, resistente, firme, leve, divina, crocante, generoso, organizada, organizado, agradável,
      aconchegante, honesta, profissional, higienizado, novos, em conta, serviu, caprichado, transparência, sério,
      tranquila, fresco, no prazo, variedade, ajudou, ajudam, ok`),
    negative: list(`ruim, ruins, péssimo, péssima, pessimo, pesimo, horrível, horrivel, terrível, lixo, atraso, atrasou,
      atrasado, atrasada, demora, demorou, demorado, demorada, lento, lenta, quebrado, quebrada, quebrou, defeito,
      defeituoso, rasgado, rasgada, amassado, amassada, riscado, trincada, sujo, suja, sujas, imundo, imunda, nojento,
      grosso, grossa, grosseiro, mal, caro, cara, caríssimo, caríssima, absurdo, absurda, errado, errada, enganoso, falso,
      falsificado, extraviado, extraviada, extraviou, extraviaram, extravio, vencido, vencida, estragado, frio, fria,
      crua, duro, velho, fraco, fraquinho, fino, fininho, frágil, decepcionado, decepcionada, decepção, problema,
      descaso, golpe, vergonha, lamentável, enrolando, enrolaram, infelizmente, pedido cancelado, sumiu, pior,
      diferente, menor, pequeno, pequena, minúscula, faltou, faltando, falta, parado, confuso, erro, travou, travando,
      descascou, descascando, descosturou, desbotou, soltou, vazando, vazou, parou, desejar, reclamar, reclamação,
      incompleto, destratado, insistente, ignorando, ignorou, chiado, mofo, manchado, molhada, aguado, requentado,
      torto, barulho, esquenta, usado, enferrujado, duplicado, indevida, recusado, desperdício, sofrimento, novela,
      lotada, lotado, enorme, gigante, eternidade, tempão, desrespeito, fedendo, fedor, mosca, cabelo, abusivo,
      constrangedor, nervo, meses, semanas, cadê, cade, devolvido, automática, ocupado, enganado, fila, espera,
      esperando, aguardando, fora`),
    mild: list('fila, espera, esperando, aguardando, meses, semanas, bem, ok, qualidade, variedade'),
    negators: list('não, nao, n, nunca, nem, sem, nada, ninguém, ninguem, ngm, jamais, nenhum, nenhuma'),
    contrast: list('mas, porém, porem, entretanto, contudo, todavia, apesar, embora, só que, so que'),
    intensifiers: list('muito, mto, mt, super, demais, extremamente, totalmente, tão, bastante, mega, bem'),
    generic: list('produto, produtos, loja, compra, pedido, item, mercadoria, serviço'),
    arrival: list('chegou, chegar, chegada, recebi, receber, recebido, prazo, veio, vieram'),
    waiting: list('esperei, esperamos, esperando, esperar, aguardei, aguardamos, aguardando, aguardar'),
    queuePlaces: list('caixa, caixas'),
  },
  es: {
    positive: list(`bueno, buena, buen, buenos, excelente, perfecto, perfecta, genial, encantó, encanta, recomiendo,
      recomendado, rápido, rápida, antes, amable, amables, atento, atenta, simpático, simpática, limpio, limpia, barato,
      barata, razonables, razonable, cómodo, cómoda, rico, rica, riquísima, riquísimo, delicioso, deliciosa, fácil,
      puntual, eficaz, eficiente, solucionó, impecable, encantador, encantadora, profesional, completo, resistente,
      ligero, práctico, fresco, frescas, maravilla, bien, variedad, calidad, sin problemas, correcto, vale`),
    negative: list(`malo, mala, pésimo, pésima, horrible, terrible, basura, retraso, tardó, tardaron, tarda, lento, lenta,
      roto, rota, rompió, defecto, defectuoso, sucio, sucia, asqueroso, asquerosos, grosero, grosera, maleducado,
      maleducada, caro, cara, carísimo, carísima, equivocado, equivocada, estafa, perdió, perdido, caducado, caducados,
      fría, frío, duro, dura, fina, incompleto, problema, problemas, antipática, antipático, aplastada, mojada, incómoda,
      incómodo, agresivo, eternidad, enorme, lío, distinto, pequeña, pequeño, manchadas, mal, desgana, gana, cuelga,
      semanas, mes, horas, peor, duplicado, cola, espera, esperando`),
    mild: list('cola, espera, esperando, semanas, mes, horas, bien, calidad, variedad'),
    negators: list('no, nunca, ni, sin, nada, nadie, jamás, ningún, ninguna, tampoco'),
    contrast: list('pero, aunque, sin embargo, sino, excepto, salvo'),
    intensifiers: list('muy, súper, super, tan, demasiado, bastante, extremadamente, totalmente'),
    generic: list('producto, productos, tienda, compra, pedido, artículo, servicio'),
    arrival: list('llegó, llegar, llega, llegado, recibí, recibir, plazo, vino'),
    waiting: list('esperé, esperamos, esperando, esperar, aguardé'),
    queuePlaces: list('caja, cajas'),
  },
  en: {
    positive: list(`good, great, excellent, perfect, amazing, love, loved, recommend, fast, quick, quickly, early, friendly,
      attentive, kind, polite, helpful, clean, spotless, cheap, cheapest, reasonable, comfortable, delicious, tasty, easy,
      smooth, sorted, lovely, gentle, sturdy, light, nice, well, fine, best, fresh, value, quality, updated, on time`),
    negative: list(`bad, poor, terrible, awful, horrible, worst, late, delay, delayed, slow, broken, broke, defective, dirty,
      filthy, disgusting, rude, unfriendly, expensive, overpriced, pricey, wrong, scam, lost, expired, cold, bland, thin,
      flimsy, cheap material, missing, crushed, wet, uncomfortable, ridiculous, nightmare, refused, ignored, stopped,
      crashing, crashes, sputtering, stains, weeks, forever, different, smaller, overcharged, down, problem, issue, line,
      queue, waiting`),
    mild: list('line, queue, waiting, weeks, well, fine, quality, value'),
    negators: list('not, no, never, nobody, nothing, without, none, neither, nor, cannot'),
    contrast: list('but, although, though, however, yet, except'),
    intensifiers: list('very, so, really, too, super, extremely, absolutely, totally, way'),
    generic: list('product, products, store, shop, purchase, order, item, service'),
    arrival: list('arrived, arrive, arrival, received, receive, came, got, showed up'),
    waiting: list('waited, waiting, wait'),
    queuePlaces: list('checkout, checkouts, till, tills, register, registers'),
  },
};
