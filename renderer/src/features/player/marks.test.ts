import { describe, expect, it } from 'vitest';
import { addMark, parseMarks, removeMark } from './marks';

describe('timeline marks', () => {
  it('numbers marks, names an unlabelled one, and removes by id', () => {
    let marks = addMark([], '  before the 404 ', 7, 1_000);
    marks = addMark(marks, '', 9, 2_000);
    expect(marks).toEqual([
      { id: 1, label: 'before the 404', seq: 7, at: 1_000 },
      { id: 2, label: 'Mark 2', seq: 9, at: 2_000 },
    ]);
    expect(removeMark(marks, 1).map((m) => m.id)).toEqual([2]);
    // An id is never given twice while a higher one stands.
    expect(addMark(removeMark(marks, 1), 'x', 10, 3_000).at(-1)!.id).toBe(3);
  });

  it('reads back what it stored and nothing else', () => {
    const marks = addMark([], 'a', 1, 5);
    expect(parseMarks(JSON.stringify(marks))).toEqual(marks);
    expect(parseMarks('not json')).toEqual([]);
    expect(parseMarks('{"id":1}')).toEqual([]);
    expect(parseMarks('[{"id":"1","label":"a","seq":1,"at":5}]')).toEqual([]);
    expect(parseMarks(null)).toEqual([]);
  });
});
