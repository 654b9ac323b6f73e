/** A page that says what will come there, until it does. */
import type { ReactNode } from 'react';

export function Placeholder({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">{title}</h1>
      </header>
      <div className="placeholder">{children}</div>
    </section>
  );
}
