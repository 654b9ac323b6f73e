/**
 * The class of a listbox of kept things (the checks' runs, the fleets): the list and its rows as
 * both areas draw them; each area's own stylesheet lays out what is where in a row.
 */
import styles from './KeptList.module.css';

export const keptListClass: string = styles.list!;
