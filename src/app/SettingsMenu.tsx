import { useEffect, useId, useRef, useState } from 'react';
import { AgentNoticeToggle } from './AgentNoticeToggle';
import { ThemeToggle } from './ThemeToggle';

/** The console's two settings behind one header button, so the header keeps one line at 1400 px. */
export function SettingsMenu() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);
  return (
    <div className="settings-menu" ref={root}>
      <button
        type="button"
        className="btn btn--small header-settings"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        Settings
      </button>
      {/* Kept mounted when closed: the agent-notice setting loads once, not on each opening. */}
      <div id={panelId} className="settings-menu__panel" role="group" aria-label="Settings" hidden={!open}>
        <AgentNoticeToggle />
        <div className="settings-menu__row">
          <span>Theme</span>
          <ThemeToggle />
        </div>
      </div>
    </div>
  );
}
