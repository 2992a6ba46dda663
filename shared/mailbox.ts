/** An address with its display name; a name outside ASCII is a MIME encoded-word, as SES requires. */
export function mailbox(address: string, name: string | undefined): string {
  if (!name) return address;
  const ascii = /^[\x20-\x7e]*$/.test(name);
  return ascii ? `"${name.replace(/["\\]/g, '\\$&')}" <${address}>` : `=?UTF-8?B?${Buffer.from(name).toString('base64')}?= <${address}>`;
}
