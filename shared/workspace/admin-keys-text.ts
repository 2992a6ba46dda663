import type { Locale } from '../locale.js';
import type { KeyScope } from '../access/credentials.js';

/**
 * The words of the API keys page in each language the service speaks (the tenant's `locale` chooses), beside the
 * words every admin page shares (admin-text.ts): a page bundles only its own area's. pt-BR is the reference: the
 * others are typed by it, so a missing word fails to compile.
 */
const ptBR = {
  keysIntro:
    'As chaves com que os sistemas da empresa chamam a API. O valor de uma chave aparece uma vez, quando ela é criada; depois, só o seu identificador.',
  keyList: 'Chaves',
  noKeys: 'Nenhuma chave ainda.',
  newKey: 'Nova chave',
  keyName: 'Nome',
  keyNameHint: 'Para quem ou para que sistema, por exemplo ERP da loja.',
  keyScope: 'Escopo',
  scopes: { public: 'API pública', chatbot: 'Chatbot', admin: 'Administração' } satisfies Record<KeyScope, string>,
  keyExpiry: 'Expira em (UTC, opcional)',
  keyExpiryHint: 'Em branco: vale até ser revogada.',
  issue: 'Criar chave',
  created: (at: string) => `criada em ${at}`,
  lastUsed: (at: string) => `último uso em ${at}`,
  neverUsed: 'nunca usada',
  expires: (at: string) => `expira em ${at}`,
  revokedAt: (at: string) => `revogada em ${at}`,
  rotatedTo: (id: string) => `substituída pela chave ${id}`,
  revoke: 'Revogar',
  rotate: 'Substituir',
  grace: 'A antiga continua valendo por',
  graces: { 0: 'nada (troca imediata)', 3600: '1 hora', 86400: '1 dia', 259200: '3 dias', 604800: '7 dias' } as Record<number, string>,
  issuedKey: 'Chave criada. Copie agora: ela não será mostrada de novo.',
  rotatedKey: (id: string, until: string) =>
    `Chave nova criada. A antiga (${id}) vale até ${until}. Copie a nova agora: ela não será mostrada de novo.`,
  revoked: 'Chave revogada: recusada a partir da próxima chamada.',
  revokeWhat: 'As chamadas com esta chave passam a ser recusadas na hora. Não dá para desfazer.',
  revokeConfirm: 'Entendo, revogar esta chave',
  issuedGone: 'A chave foi criada; o valor dela foi mostrado uma vez e não aparece de novo.',
  keyGone: 'Esta chave não pode mais ser alterada (foi revogada, expirou ou já foi substituída): veja a lista atual.',
};

export type KeysText = typeof ptBR;

const es: KeysText = {
  keysIntro:
    'Las claves con que los sistemas de la empresa llaman a la API. El valor de una clave aparece una vez, cuando se crea; después, solo su identificador.',
  keyList: 'Claves',
  noKeys: 'Todavía no hay claves.',
  newKey: 'Nueva clave',
  keyName: 'Nombre',
  keyNameHint: 'Para quién o para qué sistema, por ejemplo el ERP de la tienda.',
  keyScope: 'Alcance',
  scopes: { public: 'API pública', chatbot: 'Chatbot', admin: 'Administración' },
  keyExpiry: 'Vence el (UTC, opcional)',
  keyExpiryHint: 'En blanco: vale hasta que se revoque.',
  issue: 'Crear clave',
  created: (at) => `creada el ${at}`,
  lastUsed: (at) => `último uso el ${at}`,
  neverUsed: 'nunca usada',
  expires: (at) => `vence el ${at}`,
  revokedAt: (at) => `revocada el ${at}`,
  rotatedTo: (id) => `reemplazada por la clave ${id}`,
  revoke: 'Revocar',
  rotate: 'Reemplazar',
  grace: 'La anterior sigue valiendo durante',
  graces: { 0: 'nada (cambio inmediato)', 3600: '1 hora', 86400: '1 día', 259200: '3 días', 604800: '7 días' },
  issuedKey: 'Clave creada. Cópiela ahora: no se mostrará de nuevo.',
  rotatedKey: (id, until) =>
    `Clave nueva creada. La anterior (${id}) vale hasta el ${until}. Copie la nueva ahora: no se mostrará de nuevo.`,
  revoked: 'Clave revocada: rechazada desde la próxima llamada.',
  revokeWhat: 'Las llamadas con esta clave se rechazan desde ahora. No se puede deshacer.',
  revokeConfirm: 'Entiendo, revocar esta clave',
  issuedGone: 'La clave fue creada; su valor se mostró una vez y no vuelve a aparecer.',
  keyGone: 'Esta clave ya no se puede cambiar (fue revocada, venció o ya fue reemplazada): vea la lista actual.',
};

const en: KeysText = {
  keysIntro: "The keys the company's systems call the API with. A key's value shows once, when it is made; after that, only its id.",
  keyList: 'Keys',
  noKeys: 'No key yet.',
  newKey: 'New key',
  keyName: 'Name',
  keyNameHint: "Who or which system holds it, such as the store's ERP.",
  keyScope: 'Scope',
  scopes: { public: 'Public API', chatbot: 'Chatbot', admin: 'Administration' },
  keyExpiry: 'Expires at (UTC, optional)',
  keyExpiryHint: 'Blank: valid until revoked.',
  issue: 'Make key',
  created: (at) => `made ${at}`,
  lastUsed: (at) => `last used ${at}`,
  neverUsed: 'never used',
  expires: (at) => `expires ${at}`,
  revokedAt: (at) => `revoked ${at}`,
  rotatedTo: (id) => `replaced by key ${id}`,
  revoke: 'Revoke',
  rotate: 'Replace',
  grace: 'The old one keeps working for',
  graces: { 0: 'no time (immediate switch)', 3600: '1 hour', 86400: '1 day', 259200: '3 days', 604800: '7 days' },
  issuedKey: 'Key made. Copy it now: it will not be shown again.',
  rotatedKey: (id, until) => `New key made. The old one (${id}) works until ${until}. Copy the new one now: it will not be shown again.`,
  revoked: 'Key revoked: refused from the next call.',
  revokeWhat: 'Calls with this key are refused from now on. This cannot be undone.',
  revokeConfirm: 'I understand, revoke this key',
  issuedGone: 'The key was issued; its value was shown once and does not appear again.',
  keyGone: 'This key cannot be changed any more (revoked, expired or replaced already): see the current list.',
};

export const KEYS_TEXT: Record<Locale, KeysText> = { 'pt-BR': ptBR, es, en };
