#!/usr/bin/env node
// The mdcontract command of the npm package: it runs the Go binary that npm
// installed with the package for this platform (@mdcontract/<os>-<cpu>, an
// optional dependency whose os and cpu fields match only here), with this
// process's arguments and standard streams, and exits as the binary did.
// Nothing is downloaded, at install or at run time.
"use strict";

const { spawn } = require("child_process");
const { constants } = require("os");
const { version } = require("../package.json");

const platforms = {
  "darwin arm64": "@mdcontract/darwin-arm64",
  "darwin x64": "@mdcontract/darwin-x64",
  "linux arm64": "@mdcontract/linux-arm64",
  "linux x64": "@mdcontract/linux-x64",
  "win32 arm64": "@mdcontract/win32-arm64",
  "win32 x64": "@mdcontract/win32-x64",
};

function fail(message) {
  process.stderr.write(`mdcontract: ${message}\n`);
  process.exit(2);
}

const pkg = platforms[`${process.platform} ${process.arch}`];
if (!pkg) {
  fail(
    `no binary for ${process.platform}/${process.arch} in the npm package; ` +
      `the packages are for ${Object.keys(platforms).join(", ").replace(/ /g, "/")}. ` +
      "Build it from source instead: go install github.com/mdcontract/mdcontract/cmd/mdcontract@v" + version,
  );
}

const exe = process.platform === "win32" ? "mdcontract.exe" : "mdcontract";
let binary;
try {
  binary = require.resolve(`${pkg}/bin/${exe}`);
} catch {
  fail(
    `the package ${pkg}, which holds the binary for this platform, is not installed. ` +
      "npm leaves it out when optional dependencies are omitted (--omit=optional), " +
      "when it could not be fetched, or when the lock file was written without it. " +
      `Install it next to mdcontract: npm install ${pkg}@${version}`,
  );
}

// A signal sent to this process alone (a CI job's timeout, a process
// manager) goes on to the binary, which then exits as it would on its own.
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
let child;
const forward = (signal) => child.kill(signal);
for (const signal of forwarded) {
  process.on(signal, forward);
}

child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });

child.on("error", (err) => fail(`cannot run ${binary}: ${err.message}`));
child.on("exit", (code, signal) => {
  for (const s of forwarded) {
    process.removeListener(s, forward);
  }
  if (signal) {
    // End by the same signal, so that the caller sees what the binary saw;
    // by the shell's 128+N where Node ignores that signal (SIGPIPE).
    process.exitCode = 128 + (constants.signals[signal] || 0);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code);
});
