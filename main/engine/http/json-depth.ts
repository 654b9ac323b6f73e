/**
 * How deeply a JSON text nests, read from the text before it is parsed. Everything the engine
 * does with a body afterwards (validating, explaining, redacting, storing) walks it recursively,
 * and a 12 KB body of 6,000 brackets ran each of them out of stack: a 500, a fault rule half
 * added, a player's state silently not saved. No payload of the contract comes near the limit.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * Objects and arrays a JSON text may hold, read from a file (`run FILE`) or an admin body: the
 * largest bundle a console exports (5,000 HAR entries of some 40 each, queues of up to 100,000
 * items of a few each) holds well under a million.
 */
export const MAX_JSON_CONTAINERS = 4_000_000;

/**
 * Values of any kind (each container, and each value after a comma): the same bundle holds a few
 * million. Twenty million numbers parse into about 200 MB of heap, not gigabytes.
 */
export const MAX_JSON_VALUES = 20_000_000;

/** Whether `text` opens more than `limit` arrays and objects inside one another (strings skipped). */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  return jsonBeyond(text, limit, Infinity) === 'deep';
}

/**
 * Where `text` passes a bound, read in one scan before it is parsed (strings skipped): `deep`,
 * more than `maxDepth` arrays and objects inside one another; `many`, more than `maxContainers`
 * of them in all (what JSON.parse would build, at tens of bytes of heap each: 60 MB of `{},`
 * parsed into 2 GB), or more than `maxValues` values of any kind (each container, and each value
 * after a comma: 250 MB of `1,` parsed into 3.6 GB); null within all three.
 */
export function jsonBeyond(
  text: string,
  maxDepth: number,
  maxContainers: number,
  maxValues = Infinity,
): 'deep' | 'many' | null {
  let depth = 0;
  let containers = 0;
  let commas = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x2c) {
      if (++commas + containers > maxValues) return 'many';
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return 'deep';
      if (++containers > maxContainers || commas + containers > maxValues) return 'many';
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return null;
}
