/**
 * docs/contract/console.md §3 paths carry a `:1` version suffix on the namespace (`playback:1`,
 * `playbackSession:1`); "the same paths without `:1` … are accepted too", and session commands
 * answer under `/sessions/{id}` as well as `/playbackSessions/{id}`. One template gives every
 * spelling; fastify needs the literal colon escaped as `::`.
 */
export function controlPaths(template: string): string[] {
  const versioned = template.replace(/([A-Za-z]):1(?=\/|$)/g, '$1::1');
  const plain = template.replace(/([A-Za-z]):1(?=\/|$)/g, '$1');
  const paths = [versioned, plain];
  if (template.startsWith('/playbackSessions/'))
    paths.push(...paths.map((p) => p.replace('/playbackSessions/', '/sessions/')));
  return [...new Set(paths)];
}
