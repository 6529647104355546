// Measures the GVG-AI Java framework's forward model the way `tablero gvgai bench` measures
// tablero's: from a level's first state, copy it and advance it by 100 uniformly random
// actions (of the avatar's available actions), starting over from a new copy when the game
// ends, for a given time; a warm-up run of the same length first lets the JIT compile the
// model. Compiled against the classes of the GVG-AI framework (GAIGResearch/GVGAI); it builds
// the game with the framework's own parser and reads the state through its StateObservation,
// the forward model every Java controller uses. `benches/scripts/gvgai_forward_speed.py`
// runs it side by side with tablero.
//
// Usage: java -cp BUILD:gson.jar:DIR ForwardSpeed GAMES_DIR GAME LEVEL SECONDS [SEED]
// Prints one JSON line: {"game","level","seconds","cpu_seconds","steps","copies",
// "steps_per_sec","steps_per_cpu_sec"} (CPU time of the measuring thread).

import core.competition.CompetitionParameters;
import core.game.Game;
import core.game.StateObservation;
import core.player.AbstractPlayer;
import core.player.Player;
import core.vgdl.VGDLFactory;
import core.vgdl.VGDLParser;
import core.vgdl.VGDLRegistry;
import ontology.Types;
import tools.ElapsedCpuTimer;

import java.io.File;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Random;

public class ForwardSpeed {
    /** A player that is never asked to act: the forward model is advanced directly. */
    static class Idle extends AbstractPlayer {
        public Types.ACTIONS act(StateObservation so, ElapsedCpuTimer t) {
            return Types.ACTIONS.ACTION_NIL;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: ForwardSpeed GAMES_DIR GAME LEVEL SECONDS [SEED]");
            System.exit(2);
        }
        String dir = args[0], game = args[1];
        int level = Integer.parseInt(args[2]);
        double seconds = Double.parseDouble(args[3]);
        int seed = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        String gameFile = new File(dir, game + ".txt").getPath();
        String levelFile = new File(dir, game + "_lvl" + level + ".txt").getPath();

        PrintStream out = System.out;
        // The framework prints warnings on stdout; only the result line belongs there.
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        VGDLFactory.GetInstance().init();
        VGDLRegistry.GetInstance().init();
        Game g = new VGDLParser().parseGame(gameFile);
        g.buildLevel(levelFile, seed);
        Method prepare = Game.class.getDeclaredMethod("prepareGame", Player[].class, int.class,
                int.class);
        prepare.setAccessible(true);
        Player[] players = new Player[g.getNoPlayers()];
        for (int i = 0; i < players.length; i++) {
            players[i] = new Idle();
            players[i].setup(null, seed, false);
            players[i].setPlayerID(i);
        }
        prepare.invoke(g, players, seed, -1);
        StateObservation root = g.getObservation();
        ArrayList<Types.ACTIONS> actions = root.getAvailableActions();

        run(root, actions, seconds, seed);
        long[] r = run(root, actions, seconds, seed);
        double wall = r[2] / 1e9, cpu = r[3] / 1e9;
        out.printf("{\"game\":\"%s\",\"level\":%d,\"seconds\":%.2f,\"cpu_seconds\":%.2f,"
                + "\"steps\":%d,\"copies\":%d,\"steps_per_sec\":%d,\"steps_per_cpu_sec\":%d}%n",
                game, level, wall, cpu, r[0], r[1], Math.round(r[0] / wall),
                Math.round(r[0] / cpu));
        out.flush();
        System.exit(0);
    }

    /** Steps, copies, wall and CPU nanoseconds of one timed run. */
    static long[] run(StateObservation root, ArrayList<Types.ACTIONS> actions, double seconds,
            long seed) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Random rng = new Random(seed);
        long steps = 0, copies = 0;
        long cpu0 = mx.getCurrentThreadCpuTime(), t0 = System.nanoTime();
        long end = t0 + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            StateObservation st = root.copy();
            copies++;
            for (int i = 0; i < 100; i++) {
                if (st.isGameOver()) {
                    st = root.copy();
                    copies++;
                }
                st.advance(actions.get(rng.nextInt(actions.size())));
                steps++;
            }
        }
        return new long[] {steps, copies, System.nanoTime() - t0,
            mx.getCurrentThreadCpuTime() - cpu0};
    }
}
