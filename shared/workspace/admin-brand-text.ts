import type { Locale } from '../locale.js';

/**
 * The words of the brand page and its form's post in each language the service speaks (the tenant's `locale` chooses), beside the
 * words every admin page shares (admin-text.ts): a page bundles only its own area's. pt-BR is the reference: the
 * others are typed by it, so a missing word fails to compile.
 */
const ptBR = {
  editBrand: 'Alterar a marca',
  brandIntro: 'O que o cliente vê da empresa: o nome e o logo nas pesquisas e e-mails, a cor dos botões e o remetente dos e-mails.',
  brandName: 'Nome de exibição',
  brandNameHint: 'Como os clientes conhecem a empresa.',
  colourHint: 'Como #0b5cad. Precisa de contraste suficiente com o fundo claro (WCAG AA). Em branco: o azul padrão.',
  senderName: 'Nome do remetente dos e-mails',
  senderNameHint: 'Em branco: o nome de exibição.',
  logo: 'Novo logo',
  logoHint: 'PNG, JPEG ou WebP, até 200 KB. Sem arquivo: o logo atual continua.',
  currentLogo: 'Logo atual',
  noLogo: 'Sem logo: as pesquisas mostram o nome de exibição.',
  removeLogo: 'Remover o logo atual',
  preview: 'Prévia',
  brandSaved: 'Marca salva: vale a partir da próxima pesquisa e da próxima página.',
  logoAgain: 'Se enviou um arquivo, escolha-o de novo: ele não fica no formulário.',
};

export type BrandText = typeof ptBR;

const es: BrandText = {
  editBrand: 'Cambiar la marca',
  brandIntro:
    'Lo que el cliente ve de la empresa: el nombre y el logo en las encuestas y correos, el color de los botones y el remitente de los correos.',
  brandName: 'Nombre visible',
  brandNameHint: 'Como los clientes conocen a la empresa.',
  colourHint: 'Como #0b5cad. Necesita contraste suficiente con el fondo claro (WCAG AA). En blanco: el azul predeterminado.',
  senderName: 'Nombre del remitente de los correos',
  senderNameHint: 'En blanco: el nombre visible.',
  logo: 'Nuevo logo',
  logoHint: 'PNG, JPEG o WebP, hasta 200 KB. Sin archivo: el logo actual se mantiene.',
  currentLogo: 'Logo actual',
  noLogo: 'Sin logo: las encuestas muestran el nombre visible.',
  removeLogo: 'Quitar el logo actual',
  preview: 'Vista previa',
  brandSaved: 'Marca guardada: vale desde la próxima encuesta y la próxima página.',
  logoAgain: 'Si envió un archivo, elíjalo de nuevo: no queda en el formulario.',
};

const en: BrandText = {
  editBrand: 'Change the brand',
  brandIntro:
    'What customers see of the company: its name and logo on surveys and e-mails, the colour of the buttons, and the e-mails’ sender.',
  brandName: 'Display name',
  brandNameHint: 'The name customers know the company by.',
  colourHint: 'Such as #0b5cad. It needs enough contrast with the light background (WCAG AA). Empty: the default blue.',
  senderName: 'Sender name of the e-mails',
  senderNameHint: 'Empty: the display name.',
  logo: 'New logo',
  logoHint: 'PNG, JPEG or WebP, up to 200 KB. No file: the current logo stays.',
  currentLogo: 'Current logo',
  noLogo: 'No logo: surveys show the display name.',
  removeLogo: 'Remove the current logo',
  preview: 'Preview',
  brandSaved: 'Brand saved: it applies from the next survey and the next page.',
  logoAgain: 'If you sent a file, choose it again: it does not stay in the form.',
};

export const BRAND_TEXT: Record<Locale, BrandText> = { 'pt-BR': ptBR, es, en };
