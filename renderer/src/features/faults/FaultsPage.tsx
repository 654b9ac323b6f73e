/**
 * The Faults area: inject the seed's failures with one click (at the console's server or inside
 * the player's client), write custom rules, watch every rule's hits live, clear everything at
 * once, and save scenarios that replay a failure with the transitions it must cause.
 */
import { PresetList } from './PresetList';
import { RuleForm } from './RuleForm';
import { RuleList } from './RuleList';
import { ScenarioSection } from './ScenarioSection';
import './faults.css';

export function FaultsPage() {
  return (
    <section className="page faults-page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Faults</h1>
      </header>
      <div className="faults-grid">
        <div className="faults-column">
          <section className="faults-panel" aria-labelledby="presets-title">
            <div className="faults-panel-head">
              <h2 id="presets-title">Presets</h2>
              <span className="muted">the seed’s failure cases, one click each</span>
            </div>
            <PresetList />
          </section>
          <section className="faults-panel" aria-labelledby="custom-title">
            <RuleForm />
          </section>
        </div>
        <section className="faults-panel rules-panel" aria-labelledby="rules-title">
          <RuleList />
        </section>
        <section className="faults-panel wide" aria-labelledby="scenarios-title">
          <ScenarioSection />
        </section>
      </div>
    </section>
  );
}
