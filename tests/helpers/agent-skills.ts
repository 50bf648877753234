// The Agent Skills folders under tests/fixtures/agent-skills (our own skills in the shapes public
// collections use: license, allowed-tools, metadata, fields outside the specification, scripts/,
// references/, assets/ with a binary file, one SKILL.md with CRLF lines and one without a final
// newline), zipped as an import takes them, and requests for what each does.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { zipSync, type Zippable } from "fflate";

export const AGENT_SKILLS_DIR = path.resolve(import.meta.dirname, "../fixtures/agent-skills");

export type FixtureFile = { path: string; bytes: Uint8Array; executable: boolean };

const walk = (dir: string, base = ""): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name), `${base}${e.name}/`) : [`${base}${e.name}`]));

export const fixtureSkillNames = () => readdirSync(AGENT_SKILLS_DIR).filter((n) => statSync(path.join(AGENT_SKILLS_DIR, n)).isDirectory()).sort();

/** Every file of the fixture skill `name`, with its executable bit as checked out. */
export function fixtureFiles(name: string): FixtureFile[] {
  const dir = path.join(AGENT_SKILLS_DIR, name);
  return walk(dir).map((p) => ({ path: p, bytes: new Uint8Array(readFileSync(path.join(dir, p))), executable: (statSync(path.join(dir, p)).mode & 0o111) !== 0 }));
}

const UNIX_MODE = (executable: boolean) => (((executable ? 0o100755 : 0o100644) << 16) >>> 0);

/** A zip of the named skills' folders (`<name>/<path>`), executable bits as Unix modes. */
export function zipSkills(folders: { name: string; files: FixtureFile[] }[]): Uint8Array {
  const entries: Zippable = {};
  for (const f of folders) for (const file of f.files) entries[`${f.name}/${file.path}`] = [file.bytes, { os: 3, attrs: UNIX_MODE(file.executable) }];
  return zipSync(entries);
}

/** Requests a user could send for what each fixture skill does, in their own words: five per skill. */
export const SKILL_REQUESTS: Record<string, string[]> = {
  "release-notes": [
    "Write the release notes for version 3.2",
    "Summarize what changed between the last two tags as a changelog entry",
    "Draft an announcement of the new release for our users",
    "Can you write a changelog from the merged pull requests?",
    "List the breaking changes of this release for the upgrade guide",
  ],
  "browser-smoke-test": [
    "Test my web app running on localhost",
    "Check that the pages of my local site load and the buttons respond",
    "Take screenshots of the app in a headless browser",
    "Collect the browser console errors of my frontend",
    "Debug why the signup form of my web application does not submit",
  ],
  "chart-maker": [
    "Make a bar chart of this CSV",
    "Plot the monthly sales data as a line chart",
    "Visualize this spreadsheet as a chart image for my report",
    "Draw a scatter plot of price against size",
    "Create a histogram of the response times",
  ],
  "api-scaffold": [
    "Scaffold a REST API server in TypeScript",
    "Build a new HTTP API service with request validation",
    "Add endpoints to our existing backend",
    "Generate an OpenAPI spec for my API",
    "Set up a Python REST API with typed routes",
  ],
  "brand-style": [
    "Apply our brand colors and typography to this slide deck",
    "Make this document follow the brand guidelines",
    "Use the corporate look and feel for the landing page",
    "Add the company logo and brand fonts to the report",
    "Style these slides in our brand colors",
  ],
  "support-diagnostics": [
    "My CLI crashed, collect diagnostics for the support ticket",
    "The install keeps failing and I cannot tell why",
    "Gather the versions and error logs for a bug report",
    "Support asked me for a diagnostics bundle",
    "Bundle my configuration and recent logs into one report",
  ],
};

/** Requests none of the fixture skills is for, some sharing a word with one of them. */
export const UNRELATED_REQUESTS = [
  "Where is my order Z9?",
  "Refund order A1",
  "Reset my password",
  "What's the weather in Paris tomorrow?",
  "Translate this paragraph into French",
  "Book a table for two at 7pm",
  "What is my account balance",
  "Cancel my subscription",
  "Track my package P-5",
  "Explain the difference between TCP and UDP",
  "Convert 100 dollars to euros",
  "Recommend a good book about history",
  "Schedule a dentist appointment for Monday",
  "Run the unit tests of my backend service",
  "Post a message in the team channel",
  "Change the colors of my phone's home screen",
  "Update the shipping address of order A1",
  "Read me the news headlines",
  "What is the capital of Australia?",
  "Set a reminder to call my mother",
];
