import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fileChange, fileState } from '../../test/fixtures';
import { FileList } from './FileList';

const files = [
  fileChange('workspace:/src/app.ts', { before: fileState(1024), lines: { added: 12, removed: 4 } }),
  fileChange('workspace:/src/new.ts', { change: 'created', before: null, lines: { added: 30, removed: 0 } }),
  fileChange('workspace:/src/helpers.ts', {
    change: 'renamed',
    from: 'workspace:/src/utils.ts',
    before: fileState(2048),
  }),
  fileChange('workspace:/big.bin', { change: 'created', before: null, skipped: 'too-large', lines: undefined }),
  fileChange('workspace:/bin/run.sh', {
    change: 'mode-changed',
    before: { ...fileState(10), mode: 0o644 },
    after: { ...fileState(10), mode: 0o755 },
    lines: undefined,
  }),
];

function Harness({ onSelect = () => {} }: { onSelect?: (uri: string, viaKeyboard: boolean) => void }) {
  const [checked, setChecked] = useState<string[]>([]);
  const [selected, setSelected] = useState<string | null>(files[0].uri);
  return (
    <FileList
      files={files}
      selectedUri={selected}
      checked={checked}
      onSelect={(uri, viaKeyboard) => {
        setSelected(uri);
        onSelect(uri, viaKeyboard);
      }}
      onToggle={(uri) =>
        setChecked((list) => (list.includes(uri) ? list.filter((item) => item !== uri) : [...list, uri]))
      }
      onSetChecked={setChecked}
    />
  );
}

describe('FileList', () => {
  it('shows each path with its kind of change and line counts', () => {
    render(<Harness />);
    expect(screen.getByRole('button', { name: 'Show diff of src/app.ts' })).toBeInTheDocument();
    expect(screen.getByText('+12')).toBeInTheDocument();
    expect(screen.getByText('−4')).toBeInTheDocument();
    expect(screen.getAllByText('created')).toHaveLength(2);
    expect(screen.getByText('renamed')).toBeInTheDocument();
    expect(screen.getByText('from src/utils.ts')).toBeInTheDocument();
    expect(screen.getByText('mode 644 → 755')).toBeInTheDocument();
  });

  it('says why a path was skipped and does not offer it for restore', () => {
    render(<Harness />);
    expect(screen.getByText('skipped: too large')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select big.bin for restore' })).toBeDisabled();
  });

  it('counts the selected files and the size they restore', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select src/app.ts for restore' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select src/helpers.ts for restore' }));
    expect(screen.getByText('2 of 5 selected · 3.0 KiB')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select src/app.ts for restore' }));
    expect(screen.getByText('1 of 5 selected · 2.0 KiB')).toBeInTheDocument();
  });

  it('selects every restorable file at once, and none again', async () => {
    render(<Harness />);
    const all = screen.getByRole('checkbox', { name: 'Select all files for restore' });
    await userEvent.click(all);
    expect(screen.getByText(/^4 of 5 selected/)).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select big.bin for restore' })).not.toBeChecked();
    await userEvent.click(all);
    expect(screen.queryByText(/selected/)).toBeNull();
  });

  it('selects a file for the diff on click and moves with the arrow keys', async () => {
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    await userEvent.click(screen.getByRole('button', { name: 'Show diff of src/new.ts' }));
    expect(onSelect).toHaveBeenLastCalledWith('workspace:/src/new.ts', false);
    expect(screen.getByRole('button', { name: 'Show diff of src/new.ts' })).toHaveAttribute('aria-current', 'true');
    await userEvent.keyboard('{ArrowDown}');
    expect(onSelect).toHaveBeenLastCalledWith('workspace:/src/helpers.ts', true);
    expect(screen.getByRole('button', { name: 'Show diff of src/helpers.ts' })).toHaveFocus();
    await userEvent.keyboard('k');
    expect(onSelect).toHaveBeenLastCalledWith('workspace:/src/new.ts', true);
  });
});
