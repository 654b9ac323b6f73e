import { describe, expect, it } from 'vitest';
import { lazyPart } from './lazy-part.js';

describe('lazyPart', () => {
  it('builds the part on its first command, once, and closes it only if it was built', async () => {
    const built: string[] = [];
    const closed: string[] = [];
    const make = () =>
      lazyPart(['fleets.list', 'fleets.get'], async () => {
        built.push('fleet');
        return {
          part: { close: () => void closed.push('fleet') },
          handlers: {
            'fleets.list': () => [],
            'fleets.get': ({ id }: { id: string }) => ({ id }) as never,
          },
        };
      });

    const unused = make();
    await unused.close();
    expect(built).toEqual([]);
    expect(closed).toEqual([]);

    const used = make();
    expect(built).toEqual([]);
    const [list, one] = await Promise.all([
      used.handlers['fleets.list'](undefined as never),
      used.handlers['fleets.get']({ id: 'f1' }),
    ]);
    expect(list).toEqual([]);
    expect(one).toEqual({ id: 'f1' });
    expect(built).toEqual(['fleet']);
    await used.close();
    expect(closed).toEqual(['fleet']);
  });
});
