// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { AREAS } from '../router/areas';
import { keyLabels, matchesShortcut, SHORTCUTS, shortcutFor, shortcutOf } from './shortcuts';

function press(key: string, init: KeyboardEventInit = {}, target: Element = document.body): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, ...init });
  Object.defineProperty(event, 'target', { value: target });
  return event;
}

function field(tag: 'input' | 'textarea' | 'select', type?: string): HTMLElement {
  const element = document.createElement(tag);
  if (type) element.setAttribute('type', type);
  return element;
}

describe('the shortcut table', () => {
  it('gives every area its number key, in the sidebar order', () => {
    AREAS.forEach((area, index) =>
      expect(shortcutFor(press(String(index + 1)))?.action).toEqual({ kind: 'area', area: area.id }),
    );
  });

  it('has one shortcut per action of the frame, and no key pressed two ways in one place', () => {
    const actions = SHORTCUTS.flatMap((s) => (s.action ? [JSON.stringify(s.action)] : []));
    expect(new Set(actions).size).toBe(actions.length);
    const presses = SHORTCUTS.flatMap((s) =>
      s.keys.map((key) => `${s.scope}:${s.mod ? 'mod+' : ''}${s.alt ? 'alt+' : ''}${key}`),
    );
    expect(new Set(presses).size).toBe(presses.length);
  });

  it('types single keys in a text field or a select instead of acting on them', () => {
    for (const target of [field('input'), field('input', 'search'), field('textarea'), field('select')]) {
      expect(shortcutFor(press('3', {}, target))).toBeUndefined();
      expect(shortcutFor(press('?', { shiftKey: true }, target))).toBeUndefined();
    }
    // A checkbox or a button takes no text: the area keys work there.
    expect(shortcutFor(press('3', {}, field('input', 'checkbox')))?.action).toEqual({ kind: 'area', area: 'player' });
  });

  it('opens the palette with Ctrl+K or ⌘K, in a text field too, and not with K alone', () => {
    expect(shortcutFor(press('k', { ctrlKey: true }, field('input')))?.action).toEqual({ kind: 'palette' });
    expect(shortcutFor(press('K', { metaKey: true, shiftKey: true }))?.action).toEqual({ kind: 'palette' });
    expect(shortcutFor(press('k'))).toBeUndefined();
  });

  it('leaves a text field on Escape; a number with Ctrl or Alt is not an area key', () => {
    expect(shortcutFor(press('Escape', {}, field('input', 'search')))?.action).toEqual({ kind: 'leaveField' });
    expect(shortcutFor(press('2', { ctrlKey: true }))).toBeUndefined();
    expect(shortcutFor(press('2', { altKey: true }))).toBeUndefined();
  });

  it('matches the Traffic search key only outside fields', () => {
    expect(matchesShortcut(shortcutOf('trafficSearch'), press('/'))).toBe(true);
    expect(matchesShortcut(shortcutOf('trafficSearch'), press('/', {}, field('input')))).toBe(false);
  });

  it('writes keys the way each system does', () => {
    expect(keyLabels(shortcutOf('palette'), false)).toEqual(['Ctrl+K']);
    expect(keyLabels(shortcutOf('palette'), true)).toEqual(['⌘K']);
    expect(
      keyLabels(
        SHORTCUTS.find((s) => s.alt)!,
        false,
      ),
    ).toEqual(['Alt+↑', 'Alt+↓']);
  });
});
