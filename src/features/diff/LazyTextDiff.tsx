// The diff viewer and its highlighter stay out of the first bundle: they load with the first diff.
import { lazy, Suspense } from 'react';
import type { TextDiffProps } from './TextDiff';

const TextDiff = lazy(() => import('./TextDiff'));

/**
 * A one-line diff rendered out of sight while a large diff waits folded: the viewer's first
 * mount in a page injects its stylesheet (a few hundred ms of style work here), so paying it
 * while the person reads makes the click only render rows.
 */
export function WarmTextDiff(props: Pick<TextDiffProps, 'split' | 'wrap' | 'dark'>) {
  return (
    <div hidden aria-hidden="true">
      <Suspense fallback={null}>
        <TextDiff {...props} oldValue={'a\n'} newValue={'b\n'} virtual={false} />
      </Suspense>
    </div>
  );
}

export function LazyTextDiff(props: TextDiffProps) {
  return (
    <Suspense
      fallback={
        <p className="pane-empty" role="status">
          Loading the diff viewer…
        </p>
      }
    >
      <TextDiff {...props} />
    </Suspense>
  );
}
