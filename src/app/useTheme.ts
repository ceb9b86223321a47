// The theme on screen: the person's choice, else the system's (prefers-color-scheme).
import { useEffect } from 'react';
import { useMediaQuery } from '../lib/useMediaQuery';
import { useUiStore } from '../store';

export function useIsDark(): boolean {
  const choice = useUiStore((state) => state.theme);
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  return choice === 'dark' || (choice === 'system' && systemDark);
}

/** Puts the theme on <html>, where the stylesheet's colour variables read it. */
export function useApplyTheme(): void {
  const dark = useIsDark();
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [dark]);
}
