// Plays GVG-AI games with the Java framework's own sample controllers under its real
// competition budget (1 s init, 40 ms per act, disqualification past 50 ms), for the
// side-by-side comparison with `tablero gvgai sweep` (docs/results/gvgai.md). Compiled against
// the classes of the GVG-AI framework (GAIGResearch/GVGAI); it calls the framework's
// ArcadeMachine.runOneGame without visuals, so the game loop, the timing rules and the
// controllers are the framework's.
//
// Usage: java -cp BUILD:gson.jar:DIR SweepSamples GAMES_DIR GAME LEVEL SEED CONTROLLER...
//
// GAMES_DIR holds `<GAME>.txt` and `<GAME>_lvl<LEVEL>.txt` (tablero's data/gvgai/corpus/<category>,
// the files tablero reads with --games-dir). CONTROLLER is a short name (sampleMCTS,
// sampleRHEA, sampleGA, olets, onestep) or a fully qualified agent class. One episode per
// controller, played with the framework seed SEED; one JSON line per episode on stdout:
//   {"game","level","seed","controller","agent","win","winner","score","ticks",
//    "overspent","too_long","disqualified","error","wall_ms"}
// `winner` is the framework's code (1 win, 0 loss, -100 disqualified); `overspent` counts the
// acts over 40 ms that the framework replaced by NIL and `too_long` the acts over 50 ms that
// disqualified the controller (read from the framework's own messages); `error` names an
// exception the run threw (the episode then counts as a loss). Progress goes to stderr.

import tracks.ArcadeMachine;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

public class SweepSamples {
    private static final Map<String, String> AGENTS = new LinkedHashMap<>();

    static {
        AGENTS.put("sampleMCTS", "tracks.singlePlayer.advanced.sampleMCTS.Agent");
        AGENTS.put("sampleRHEA", "tracks.singlePlayer.advanced.sampleRHEA.Agent");
        AGENTS.put("sampleGA", "tracks.singlePlayer.deprecated.sampleGA.Agent");
        AGENTS.put("olets", "tracks.singlePlayer.advanced.olets.Agent");
        AGENTS.put("onestep", "tracks.singlePlayer.simple.sampleonesteplookahead.Agent");
    }

    public static void main(String[] args) {
        if (args.length < 5) {
            System.err.println("usage: SweepSamples GAMES_DIR GAME LEVEL SEED CONTROLLER...");
            System.exit(2);
        }
        String dir = args[0];
        String game = args[1];
        int level = Integer.parseInt(args[2]);
        int seed = Integer.parseInt(args[3]);
        String gameFile = new File(dir, game + ".txt").getPath();
        String levelFile = new File(dir, game + "_lvl" + level + ".txt").getPath();
        PrintStream out = System.out;
        for (int i = 4; i < args.length; i++) {
            String name = args[i];
            String agent = AGENTS.getOrDefault(name, name);
            System.err.println("java " + game + " " + level + " seed " + seed + " " + name + " ...");
            out.println(episode(gameFile, levelFile, game, level, seed, name, agent));
            out.flush();
        }
    }

    /** One episode as a JSON line; the framework's stdout is captured and counted. */
    private static String episode(String gameFile, String levelFile, String game, int level,
                                  int seed, String name, String agent) {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        double[] result = null;
        String error = null;
        long start = System.nanoTime();
        try {
            System.setOut(new PrintStream(captured, true, "UTF-8"));
            result = ArcadeMachine.runOneGame(gameFile, levelFile, false, agent, null, seed, 0);
        } catch (Throwable t) {
            error = t.toString();
        } finally {
            System.setOut(out);
        }
        long wallMs = (System.nanoTime() - start) / 1_000_000;
        String log;
        try {
            log = captured.toString("UTF-8");
        } catch (java.io.UnsupportedEncodingException e) {
            log = "";
        }
        int overspent = count(log, "Overspent: ");
        int tooLong = count(log, "Too long: ");
        int winner = result == null ? 0 : (int) result[0];
        double score = result == null ? 0 : result[1];
        int ticks = result == null ? 0 : (int) result[2];
        System.err.println("java " + game + " " + level + " seed " + seed + " " + name + ": "
                + (winner == 1 ? "win" : "loss") + " score " + score + " at tick " + ticks
                + (error == null ? "" : " error " + error));
        return "{\"game\":\"" + game + "\",\"level\":" + level + ",\"seed\":" + seed
                + ",\"controller\":\"" + name + "\",\"agent\":\"" + agent + "\",\"win\":" + (winner == 1)
                + ",\"winner\":" + winner + ",\"score\":" + score + ",\"ticks\":" + ticks
                + ",\"overspent\":" + overspent + ",\"too_long\":" + tooLong
                + ",\"disqualified\":" + (winner == -100) + ",\"error\":"
                + (error == null ? "null" : "\"" + error.replace("\\", "\\\\").replace("\"", "'") + "\"")
                + ",\"wall_ms\":" + wallMs + "}";
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
