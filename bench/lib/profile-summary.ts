// Prints where a .cpuprofile's time went (self time by file and by function), e.g. one written
// by a measured process of the system bench run with CPU_PROF=<dir>.
// Run: npx tsx bench/lib/profile-summary.ts <file.cpuprofile> [top]

import { readFileSync } from 'node:fs';
import { summarise } from './cpu-profile.js';

const [file, top] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as Parameters<typeof summarise>[0], Number(top ?? 30)));
