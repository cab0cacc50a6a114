/**
 * Opens a URL in the user's browser when there is a display to show it on (macOS, or
 * DISPLAY/WAYLAND_DISPLAY set), with `open` or `xdg-open`, without a shell. Best effort: returns
 * whether an opener was started, and never throws (the caller prints the URL anyway).
 */
export async function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const mac = process.platform === 'darwin';
  if (!mac && !env.DISPLAY && !env.WAYLAND_DISPLAY) return false;
  try {
    const { spawn } = await import('node:child_process');
    const child = spawn(mac ? 'open' : 'xdg-open', [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
