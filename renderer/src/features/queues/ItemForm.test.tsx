// @vitest-environment happy-dom
/**
 * The item dialog says what is wrong beside the field that is wrong, puts the cursor there, and
 * forgets a problem once its field changes (audit: a media URL of "not a url" was added, and the
 * one error line sat at the dialog's foot).
 */
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Track } from '@engine-api/queue-types';
import { ItemForm, problemsOf, type Fields } from './ItemForm';

afterEach(cleanup);

const valid: Fields = {
  name: 'Song',
  artist: '',
  album: '',
  seconds: '180',
  mediaUrl: 'https://media.example.com/a.mp3',
  contentType: 'audio/mpeg',
  imageUrl: '',
};

describe('problemsOf', () => {
  it.each([
    ['a media URL that is no URL', { mediaUrl: 'not a url' }, 'mediaUrl'],
    ['a media URL of another scheme', { mediaUrl: 'ftp://media.example.com/a.mp3' }, 'mediaUrl'],
    ['no media URL', { mediaUrl: '  ' }, 'mediaUrl'],
    ['an image URL that is no URL', { imageUrl: 'cover.png' }, 'imageUrl'],
    ['no title', { name: ' ' }, 'name'],
    ['no duration', { seconds: '' }, 'seconds'],
    ['a negative duration', { seconds: '-1' }, 'seconds'],
  ] as const)('names %s', (_what, change, field) => {
    expect(Object.keys(problemsOf({ ...valid, ...change }))).toEqual([field]);
  });

  it('finds nothing wrong with a valid track, an empty image URL included', () => {
    expect(problemsOf(valid)).toEqual({});
    expect(problemsOf({ ...valid, imageUrl: 'http://127.0.0.1:8080/cover.png' })).toEqual({});
  });
});

describe('ItemForm', () => {
  it('refuses an invalid media URL beside its field, focused, and forgets it once the field changes', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn<(track: Track) => void>();
    render(<ItemForm busy={false} error={null} onSave={onSave} onCancel={() => undefined} />);
    await user.type(screen.getByLabelText('Title'), 'Song');
    const media = screen.getByLabelText('Media URL');
    await user.clear(media);
    await user.type(media, 'not a url');
    await user.click(screen.getByRole('button', { name: 'Add item' }));

    expect(onSave).not.toHaveBeenCalled();
    expect(media.getAttribute('aria-invalid')).toBe('true');
    const described = document.getElementById(media.getAttribute('aria-describedby')!);
    expect(described?.textContent).toMatch(/An http\(s\) URL the player can fetch/);
    expect(document.activeElement).toBe(media);

    await user.type(media, 'x');
    expect(media.hasAttribute('aria-invalid')).toBe(false);
    expect(screen.queryByText(/An http\(s\) URL the player can fetch/)).toBeNull();

    await user.clear(media);
    await user.type(media, 'https://media.example.com/b.mp3');
    await user.click(screen.getByRole('button', { name: 'Add item' }));
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ mediaUrl: 'https://media.example.com/b.mp3' }));
  });
});
