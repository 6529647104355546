"""Harness for tablero's interoperability test: runs the `diplomacy` 1.1.2
(PyPI) server with one standard game for 7 DAIDE players on 127.0.0.1.

Usage: python diplomacy_server.py DAIDE_PORT END_YEAR

Prints `READY` once the DAIDE port listens, `PHASE <name>` whenever the game
moves on, and `REACHED <name>` once a phase of END_YEAR + 1 or the end of the
game is reached, then `RESULT <json>` (per power, by its first three letters:
supply centres and units) and exits 0. Monkeypatches applied (see the reference):
only the standard map is loaded at start-up (the others take hours to compute
convoy paths), and both servers bind 127.0.0.1 only.
"""
import asyncio
import json
import socket
import sys
import tempfile

from diplomacy import Map
from diplomacy.server import server as srv
from diplomacy.server.server_game import ServerGame
from tornado import tcpserver, web


def _standard_only(self):
    m = Map('standard')
    self.available_maps['standard'] = {
        'powers': list(m.powers), 'supply_centers': list(m.scs),
        'loc_type': m.loc_type.copy(), 'loc_abut': m.loc_abut.copy(),
        'aliases': m.aliases.copy()}


srv.Server._load_available_maps = _standard_only

_tcp_listen = tcpserver.TCPServer.listen
_app_listen = web.Application.listen


def _tcp_local(self, port, address='', **kw):
    return _tcp_listen(self, port, address='127.0.0.1', **kw)


def _app_local(self, port, address='', **kw):
    return _app_listen(self, port, address='127.0.0.1', **kw)


tcpserver.TCPServer.listen = _tcp_local
web.Application.listen = _app_local


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def year_of(phase):
    try:
        return int(phase[1:5])
    except (ValueError, IndexError):
        return None


async def main(daide_port, end_year):
    server = srv.Server(server_dir=tempfile.mkdtemp())
    server.start(port=free_port())
    game = ServerGame(map_name='standard', n_controls=7, deadline=0,
                      rules=['NO_PRESS', 'IGNORE_ERRORS', 'POWER_CHOICE'], server=server)
    server.start_new_daide_server(game.game_id, port=daide_port)
    server.add_new_game(game)
    print('READY', flush=True)
    last = None
    while True:
        await asyncio.sleep(0.2)
        phase = game.get_current_phase()
        if phase != last:
            print('PHASE', phase, flush=True)
            last = phase
        year = year_of(phase)
        if game.is_game_done or (year is not None and year > end_year):
            print('REACHED', phase, flush=True)
            result = {name[:3]: {'centres': len(game.get_centers(name)),
                                 'units': len(game.get_units(name))}
                      for name in game.powers}
            print('RESULT', json.dumps(result, sort_keys=True), flush=True)
            return


if __name__ == '__main__':
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
