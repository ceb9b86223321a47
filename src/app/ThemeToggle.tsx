import { useUiStore, type ThemeChoice } from '../store';

const CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'Auto' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Light, dark, or whatever the system prefers (the default); kept for the next visit. */
export function ThemeToggle() {
  const theme = useUiStore((state) => state.theme);
  const setTheme = useUiStore((state) => state.setTheme);
  return (
    <div className="segmented segmented--header" role="group" aria-label="Theme">
      {CHOICES.map((choice) => (
        <button
          key={choice.value}
          type="button"
          aria-pressed={theme === choice.value}
          onClick={() => setTheme(choice.value)}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}
