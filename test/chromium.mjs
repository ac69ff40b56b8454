// Debian's Chromium, headless, as every browser-driven test here launches it. Without the background-networking
// flags Chromium keeps trying to reach Google's services, which this closed network refuses, many at a time.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];
