// Drives `tablero gtp` through Sabaki's own GTP library (@sabaki/gtp, vendored in
// ../shared/peers/sabaki-gtp) the way Sabaki 0.60 drives an engine, and reads every analysis
// line with Sabaki 0.60's rules.
//
//   MIN_VISITS=500 node sabaki_analysis.js <sabaki-gtp dir> <tablero binary> [args...]
//
// MIN_VISITS is the engine's gtp.analysis_min_visits (default 500).
//
// What Sabaki 0.60 does, and what is checked:
// - On start: name, version, protocol_version, list_commands. Analysis uses the first of
//   `analyze`, `kata-analyze`, `lz-analyze` the engine lists; engine moves the first of
//   `genmove_analyze`, `kata-genmove_analyze`, `lz-genmove_analyze` (else `genmove`). Both are
//   sent as `<command> <color> 50` (board.analysis_interval, centiseconds).
// - The position is synced by ControllerStateTracker.sync (boardsize, komi, play history).
// - An analysis is stopped by sending `protocol_version` while the engine is busy.
// - Win rates of commands whose name starts with `kata` are floats in [0, 1]; all others are
//   integers in ten-thousandths. Sabaki shows the maximum over all variations as the
//   position's win rate, and labels a move only from 10 visits on.
//
// Prints one JSON line with the figures and exits 1 on the first failed check.

'use strict'

const path = require('path')
const [sabakiDir, tablero, ...engineArgs] = process.argv.slice(2)
const {Controller, ControllerStateTracker} = require(path.resolve(sabakiDir, 'src', 'main.js'))

const INTERVAL = '50'
const MIN_VISITS = Number(process.env.MIN_VISITS || 500)
const alpha = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'

function fail(message) {
  console.error(`FAIL: ${message}`)
  process.exit(1)
}

function check(condition, message) {
  if (!condition) fail(message)
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// A vertex as Sabaki's board.parseVertex reads it ([x, y], or null off the board).
function parseVertex(coord, size) {
  if (!/^[A-Za-z]\d+$/.test(coord)) return null
  let x = alpha.indexOf(coord[0].toUpperCase())
  let y = size - Number(coord.slice(1))
  return x >= 0 && x < size && y >= 0 && y < size ? [x, y] : null
}

// One `info ...` line split into variations by Sabaki 0.60's rules: each segment after
// `info` ends with its principal variation (a run of vertices); the tokens before it are
// key/value pairs, the last one (`pv`) dropped.
function sabakiVariations(line, size, format) {
  let out = []
  for (let segment of line.split(/\s*info\s+/).slice(1)) {
    segment = segment.trim()
    let pvMatch = segment.match(/(pass|[A-Za-z]\d+)(\s+(pass|[A-Za-z]\d+))*$/)
    if (pvMatch == null) continue
    let tokens = segment.slice(0, pvMatch.index).trim().split(/\s+/).slice(0, -1)
    let fields = {}
    for (let i = 0; i + 1 < tokens.length; i += 2) fields[tokens[i]] = tokens[i + 1]
    if (fields.move == null || fields.winrate == null) continue
    if (!/^[A-Za-z]\d+$/.test(fields.move)) continue
    let raw = fields.winrate
    out.push({
      move: fields.move,
      vertex: parseVertex(fields.move, size),
      visits: Number(fields.visits),
      raw,
      winrate: format === 'float' ? Number(raw) * 100 : Number(raw) / 100,
      pv: pvMatch[0].split(/\s+/).filter(x => x !== 'pass').map(x => parseVertex(x, size))
    })
  }
  return out
}

// Checks one analysis line as Sabaki would show it; returns the shown position win rate.
function checkLine(line, size, format, command) {
  let variations = sabakiVariations(line, size, format)
  check(variations.length > 0, `${command}: no variation Sabaki can read in ${line}`)
  for (let v of variations) {
    check(v.vertex != null, `${command}: move ${v.move} off the board`)
    check(v.pv.every(p => p != null), `${command}: pv off the board in ${line}`)
    check(Number.isInteger(v.visits) && v.visits >= 0, `${command}: visits ${v.visits}`)
    if (format === 'integer') {
      check(/^\d+$/.test(v.raw), `${command}: win rate ${v.raw} is not an integer`)
    }
    check(
      Number.isFinite(v.winrate) && v.winrate >= 0 && v.winrate <= 100,
      `${command}: win rate ${v.raw} reads as ${v.winrate} %`
    )
  }
  // Moves below the visit threshold carry one shared value (the position's), never their own.
  let few = new Set(variations.filter(v => v.visits < MIN_VISITS).map(v => v.raw))
  check(few.size <= 1, `${command}: low-visit moves carry their own win rates: ${line}`)
  let best = variations.reduce((a, b) => (b.visits > a.visits ? b : a))
  let shown = Math.max(...variations.map(v => v.winrate))
  // Sabaki's position win rate is the most visited move's, give or take the noise of moves
  // with at least MIN_VISITS playouts each.
  if (best.visits >= MIN_VISITS) {
    check(
      shown - best.winrate <= 10,
      `${command}: Sabaki would show ${shown} % against ${best.winrate} % for the most visited ` +
        `move ${best.move} (${best.visits} visits): ${line}`
    )
  }
  return {shown, best: best.winrate, visits: best.visits}
}

// Runs one analysis the way Sabaki does and stops it with protocol_version after `ms`.
async function analyse(controller, command, color, size, ms) {
  let format = command.startsWith('kata') ? 'float' : 'integer'
  let shown = []
  let ended = null
  let response = controller.sendCommand({name: command, args: [color, INTERVAL]}, ({line}) => {
    if (line.startsWith('info ')) shown.push(checkLine(line, size, format, command))
  })
  response.then(() => (ended = Date.now()))
  await sleep(ms)
  let stopAt = Date.now()
  let abort = controller.sendCommand({name: 'protocol_version'})
  let res = await response
  check(!res.error, `${command} failed: ${res.content}`)
  let stopped = ended - stopAt
  let ack = await abort
  check(!ack.error && ack.content.trim() === '2', `protocol_version after ${command}: ${ack.content}`)
  return {shown, stopped}
}

// Sabaki's engine move: the genmove_analyze form, the move read from the `play` line.
async function engineMove(controller, command, color, size) {
  let format = command.startsWith('kata') ? 'float' : 'integer'
  let infos = 0
  let played = null
  let res = await controller.sendCommand({name: command, args: [color, INTERVAL]}, ({line}) => {
    if (line.startsWith('info ')) {
      check(played == null, `${command}: info after play`)
      checkLine(line, size, format, command)
      infos += 1
    } else if (line.startsWith('play ')) {
      played = line.slice('play '.length).trim()
    }
  })
  check(!res.error, `${command} failed: ${res.content}`)
  check(played != null, `${command}: no play line in ${res.content}`)
  check(
    played.toLowerCase() === 'pass' || parseVertex(played, size) != null,
    `${command}: bad move ${played}`
  )
  check(infos > 0, `${command}: no analysis before the move`)
  return {played, infos}
}

async function main() {
  let controller = new Controller(tablero, engineArgs)
  let tracker = new ControllerStateTracker(controller)
  controller.start()
  let [name, , protocol, listed] = await Promise.all(
    ['name', 'version', 'protocol_version', 'list_commands'].map(n =>
      controller.sendCommand({name: n})
    )
  )
  check(name.content === 'tablero', `name: ${name.content}`)
  check(protocol.content === '2', `protocol_version: ${protocol.content}`)
  let commands = listed.content.split('\n')
  let analyzeCommand = ['analyze', 'kata-analyze', 'lz-analyze'].find(c => commands.includes(c))
  let genmoveCommand = ['genmove_analyze', 'kata-genmove_analyze', 'lz-genmove_analyze'].find(c =>
    commands.includes(c)
  )
  check(analyzeCommand === 'analyze', `Sabaki would analyse with ${analyzeCommand}`)
  check(genmoveCommand === 'genmove_analyze', `Sabaki would play with ${genmoveCommand}`)

  let size = 9
  let history = ['E5', 'C3', 'G4', 'C6', 'D7'].map((v, i) => ({
    name: 'play',
    args: [i % 2 === 0 ? 'B' : 'W', v]
  }))
  await tracker.sync({komi: 7, boardsize: [size, size], history})
  let board = await controller.sendCommand({name: 'showboard'})
  check(/ X /.test(board.content) || / X$/m.test(board.content), `sync: ${board.content}`)

  let report = {}
  for (let command of ['analyze', 'lz-analyze', 'kata-analyze']) {
    let {shown, stopped} = await analyse(controller, command, 'W', size, 1500)
    check(shown.length >= 2, `${command}: ${shown.length} info lines in 1.5 s at interval 50`)
    let last = shown[shown.length - 1]
    report[command] = {lines: shown.length, shown: last.shown, best: last.best, stop_ms: stopped}
  }
  // The three dialects describe one position: their readings agree (a scale error would be
  // a factor of 100).
  let readings = ['analyze', 'lz-analyze', 'kata-analyze'].map(c => report[c].best)
  check(
    Math.max(...readings) - Math.min(...readings) <= 20,
    `the dialects disagree: ${JSON.stringify(report)}`
  )

  // Twenty quick start/stop cycles, as Sabaki sends when the user steps through a game.
  let slowest = 0
  for (let i = 0; i < 20; i++) {
    let {stopped} = await analyse(controller, analyzeCommand, i % 2 ? 'B' : 'W', size, 60)
    slowest = Math.max(slowest, stopped)
  }
  check(slowest < 500, `an analysis took ${slowest} ms to stop`)
  report.cycles = {count: 20, slowest_stop_ms: slowest}

  await controller.sendCommand({name: 'time_settings', args: ['0', '1', '1']})
  let moves = []
  for (let [i, command] of [genmoveCommand, 'kata-genmove_analyze', 'lz-genmove_analyze'].entries()) {
    let color = i % 2 === 0 ? 'W' : 'B'
    moves.push(await engineMove(controller, command, color, size))
  }
  report.moves = moves
  // The engine played the moves: the state tracker saw them and the engine agrees on a undo.
  let undo = await controller.sendCommand({name: 'undo'})
  check(!undo.error, `undo after the engine's moves: ${undo.content}`)

  await controller.stop()
  console.log(JSON.stringify({sabaki_gtp: 'ok', ...report}))
}

main().catch(err => fail(err && err.stack ? err.stack : String(err)))
