// The diff viewer and its highlighter stay out of the first bundle: they load with the first diff.
import { lazy, Suspense } from 'react';
import type { TextDiffProps } from './TextDiff';

const TextDiff = lazy(() => import('./TextDiff'));

export function LazyTextDiff(props: TextDiffProps) {
  return (
    <Suspense fallback={<p className="pane-empty" role="status">Loading the diff viewer…</p>}>
      <TextDiff {...props} />
    </Suspense>
  );
}
