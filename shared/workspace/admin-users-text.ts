import type { Locale } from '../locale.js';
import type { UserRole } from '../tenants/ports.js';

/**
 * The words of the users page in each language the service speaks (the tenant's `locale` chooses), beside the
 * words every admin page shares (admin-text.ts): a page bundles only its own area's. pt-BR is the reference: the
 * others are typed by it, so a missing word fails to compile.
 */
const ptBR = {
  usersIntro: 'Quem entra no painel: gerentes, que veem todas as lojas ou só as listadas, e administradores.',
  noUsers: 'Nenhum usuário ainda.',
  newUser: 'Novo usuário',
  scopeAll: 'Todas as lojas e grupos',
  scopeSome: 'Só estas lojas e grupos',
  stores: 'Lojas (códigos separados por vírgula)',
  groups: 'Grupos (códigos separados por vírgula)',
  role: 'Papel',
  roles: { member: 'Gerente', admin: 'Administrador' } satisfies Record<UserRole, string>,
  invite: 'Convidar',
  invited: (email: string) => `Convite enviado a ${email}, com uma senha temporária.`,
  userToken: 'Token de API deste usuário, mostrado só agora:',
  everyStore: 'todas as lojas',
  someStores: (stores: string, groups: string) => `lojas ${stores || '—'}; grupos ${groups || '—'}`,
  disabledAt: (at: string) => `desativado em ${at}`,
  disable: 'Desativar',
  enable: 'Reativar',
  makeAdmin: 'Tornar administrador',
  makeMember: 'Tornar gerente',
  changed: 'Usuário alterado: vale a partir da próxima página que ele abrir.',
  you: 'você',
  editUser: 'Alterar o que vê e o papel',
  disableWhat:
    'A pessoa sai do painel na próxima página que abrir, não consegue entrar e o token de API dela é recusado. Dá para reativar depois.',
  disableConfirm: 'Entendo, desativar este usuário',
  selfNote: 'Você não pode se desativar nem deixar de ser administrador: peça a outro administrador.',
  selfDisable: 'Você não pode se desativar: peça a outro administrador.',
  selfRole: 'Você não pode deixar de ser administrador: peça a outro administrador.',
  userGone: 'Este usuário não existe mais: veja a lista atual.',
  invitedGone: 'O convite foi enviado; o token de API foi mostrado uma vez e não aparece de novo.',
};

export type UsersText = typeof ptBR;

const es: UsersText = {
  usersIntro: 'Quién entra al panel: gerentes, que ven todas las tiendas o solo las indicadas, y administradores.',
  noUsers: 'Todavía no hay usuarios.',
  newUser: 'Nuevo usuario',
  scopeAll: 'Todas las tiendas y grupos',
  scopeSome: 'Solo estas tiendas y grupos',
  stores: 'Tiendas (códigos separados por comas)',
  groups: 'Grupos (códigos separados por comas)',
  role: 'Rol',
  roles: { member: 'Gerente', admin: 'Administrador' },
  invite: 'Invitar',
  invited: (email) => `Invitación enviada a ${email}, con una contraseña temporal.`,
  userToken: 'Token de API de este usuario, mostrado solo ahora:',
  everyStore: 'todas las tiendas',
  someStores: (stores, groups) => `tiendas ${stores || '—'}; grupos ${groups || '—'}`,
  disabledAt: (at) => `desactivado el ${at}`,
  disable: 'Desactivar',
  enable: 'Reactivar',
  makeAdmin: 'Hacer administrador',
  makeMember: 'Hacer gerente',
  changed: 'Usuario modificado: vale desde la próxima página que abra.',
  you: 'usted',
  editUser: 'Cambiar lo que ve y el rol',
  disableWhat:
    'La persona sale del panel en la próxima página que abra, no puede entrar y su token de API se rechaza. Se puede reactivar después.',
  disableConfirm: 'Entiendo, desactivar este usuario',
  selfNote: 'No puede desactivarse ni dejar de ser administrador: pídalo a otro administrador.',
  selfDisable: 'No puede desactivarse: pídalo a otro administrador.',
  selfRole: 'No puede dejar de ser administrador: pídalo a otro administrador.',
  userGone: 'Este usuario ya no existe: vea la lista actual.',
  invitedGone: 'La invitación fue enviada; el token de API se mostró una vez y no vuelve a aparecer.',
};

const en: UsersText = {
  usersIntro: 'Who signs in to the workspace: managers, who see every store or only those listed, and administrators.',
  noUsers: 'No user yet.',
  newUser: 'New user',
  scopeAll: 'Every store and group',
  scopeSome: 'Only these stores and groups',
  stores: 'Stores (codes, comma-separated)',
  groups: 'Groups (codes, comma-separated)',
  role: 'Role',
  roles: { member: 'Manager', admin: 'Administrator' },
  invite: 'Invite',
  invited: (email) => `Invitation sent to ${email}, with a temporary password.`,
  userToken: "This user's API token, shown only now:",
  everyStore: 'every store',
  someStores: (stores, groups) => `stores ${stores || '—'}; groups ${groups || '—'}`,
  disabledAt: (at) => `disabled ${at}`,
  disable: 'Disable',
  enable: 'Enable',
  makeAdmin: 'Make administrator',
  makeMember: 'Make manager',
  changed: 'User changed: it applies from the next page they open.',
  you: 'you',
  editUser: 'Change what they see and their role',
  disableWhat:
    'They leave the workspace on the next page they open, cannot sign in, and their API token is refused. You can enable them again later.',
  disableConfirm: 'I understand, disable this user',
  selfNote: 'You cannot disable yourself or drop your own admin role: ask another admin.',
  selfDisable: 'You cannot disable yourself: ask another admin.',
  selfRole: 'You cannot drop your own admin role: ask another admin.',
  userGone: 'This user no longer exists: see the current list.',
  invitedGone: 'The invitation was sent; the API token was shown once and does not appear again.',
};

export const USERS_TEXT: Record<Locale, UsersText> = { 'pt-BR': ptBR, es, en };
