import { TABLE } from '../table.js';

/** The entity attribute of an item (which kind of thing it is). */
export const entity = (name: string) => ({ [TABLE.entityAttribute]: name });
