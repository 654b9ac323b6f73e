/** Form parts the integration forms share: what users see on the consent page, and an error line. */
import styles from './fields.module.css';

export interface ConsentFields {
  name: string;
  description: string;
  category: string;
}

export function ConsentFieldInputs({
  value,
  onChange,
  autoFocus = false,
}: {
  value: ConsentFields;
  onChange(next: ConsentFields): void;
  autoFocus?: boolean;
}) {
  const field = (key: keyof ConsentFields) => (event: { target: { value: string } }) =>
    onChange({ ...value, [key]: event.target.value });
  return (
    <>
      <label>
        Name
        <input value={value.name} onChange={field('name')} required maxLength={100} autoFocus={autoFocus} />
      </label>
      <label>
        Description
        <input
          value={value.description}
          onChange={field('description')}
          maxLength={1000}
          placeholder="Shown to users on the consent page"
        />
      </label>
      <label>
        Category
        <input value={value.category} onChange={field('category')} maxLength={100} />
      </label>
    </>
  );
}

export function FormError({ error }: { error: Error | null | undefined }) {
  return error ? (
    <p role="alert" className={styles.formError}>
      {error.message}
    </p>
  ) : null;
}
