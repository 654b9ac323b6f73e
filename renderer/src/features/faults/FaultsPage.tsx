/**
 * The Faults area: inject the seed's failures with one click (at the console's server or inside
 * the player's client), write custom rules, watch every rule's hits live, clear everything at
 * once, and save scenarios that replay a failure with the transitions it must cause. The scenario
 * templates run in one click from the top; the saved scenarios sit below the grid, clear of the
 * rules panel that stays in view while the presets and the form scroll (it covered them).
 */
import { PresetList } from './PresetList';
import { RuleForm } from './RuleForm';
import { RuleList } from './RuleList';
import { ScenarioSection } from './ScenarioSection';
import { TemplateRuns } from './TemplateRuns';
import styles from './FaultsPage.module.css';

export function FaultsPage() {
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Faults</h1>
      </header>
      <section className={`panel ${styles.templatePanel}`} aria-labelledby="template-runs-title">
        <TemplateRuns />
      </section>
      <div className={styles.grid}>
        <div className={styles.column}>
          <section className="panel" aria-labelledby="presets-title">
            <div className="panel-head">
              <h2 id="presets-title">Presets</h2>
              <span className="muted">the seed’s failure cases, one click each</span>
            </div>
            <PresetList />
          </section>
          <section className="panel" aria-labelledby="custom-title">
            <RuleForm />
          </section>
        </div>
        <section className={`panel ${styles.rulesPanel}`} aria-labelledby="rules-title">
          <RuleList />
        </section>
      </div>
      <section className="panel" aria-labelledby="scenarios-title">
        <ScenarioSection />
      </section>
    </section>
  );
}
