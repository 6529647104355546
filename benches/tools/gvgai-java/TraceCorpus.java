// Records canonical per-tick state traces of GVG-AI games, for tablero's corpus test
// (tests/gvgai_corpus.rs). Compiled against the classes of the GVG-AI framework
// (GAIGResearch/GVGAI); it drives the framework's own game loop and reads its sprites.
//
// Usage: java -cp BUILD:gson.jar:DIR TraceCorpus EXAMPLES_DIR OUT_FILE [ACTS]
//        java -cp ... TraceCorpus --dump EXAMPLES_DIR CATEGORY GAME LEVEL SEED [ACTS]
//
// For every game of EXAMPLES_DIR/{gridphysics,contphysics,2player} (a `<game>.txt` with a
// `<game>_lvl0.txt`), levels 0-4 that exist and seeds 1000 + 10 * level + k (k = 0, 1, 2), the
// game is built and played with that seed by the framework's game loop; the action of cycle t
// is the t-th action of a sequence generated from the seed (splitmix64, see `actions`), and
// in two-player games the second player's from seed + 7919. The run
// stops when the game ends or after ACTS cycles (default 300). After every cycle, and once
// before the first, the state is reduced to a hash: per sprite a list of integer fields (type
// name, position, orientation, speed, health, resources, movement and lifetime counters, class
// counters), hashed and sorted so that sprite ids and group order do not matter, then combined
// with the cycle count, score, winner and end flag (then the other players' scores and
// winners; SCORE1000 and WINNER below are the first player's). One line per run:
//   CATEGORY GAME LEVEL SEED CYCLES WINNER SCORE1000 HASH C1 C5 C20 C50 C100 C200
// (C<t>: the low 32 bits of the running hash after state t, "-" if the run ended before). A
// game that fails to build or crashes is recorded as `CATEGORY GAME LEVEL SEED error MESSAGE`.
// Every run is played twice; one whose plays differ (the framework drew from an unseeded
// generator) is recorded as `CATEGORY GAME LEVEL SEED unstable`. A run whose scripted
// controller overspent the framework's act time (the framework then plays NIL or disqualifies
// it) is played again. The framework's warning count (it ends a game at 25) starts at zero in
// every run. `--dump` prints the canonical state of every state
// of one run as text instead (the format of tablero's GVGAI_CORPUS_DUMP).

import core.game.Game;
import core.game.StateObservation;
import core.game.StateObservationMulti;
import core.logging.Logger;
import core.player.AbstractPlayer;
import core.player.Player;
import core.vgdl.SpriteGroup;
import core.vgdl.VGDLFactory;
import core.vgdl.VGDLParser;
import core.vgdl.VGDLRegistry;
import core.vgdl.VGDLSprite;
import ontology.Types;
import ontology.sprites.Flicker;
import ontology.sprites.npc.RandomNPC;
import ontology.sprites.producer.SpawnPoint;
import ontology.sprites.producer.SpawnPointMultiSprite;
import tools.Direction;
import tools.ElapsedCpuTimer;

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class TraceCorpus {
    static final long FNV_OFFSET = 0xcbf29ce484222325L;
    static final int[] CHECKPOINTS = {1, 5, 20, 50, 100, 200};
    static final String ACTION_CHARS = "NUDLRS";
    static Field groupsF;
    static Field endedF;
    static Field npcCounterF;
    static Field npcPrevF;
    static Field spStartF;
    static Field spmStartF;
    static Method prepareM;
    static Method cycleM;

    /** The per-cycle actions of a run: splitmix64 from the seed; each draw picks one of
     *  N U D L R S and repeats it 1-4 times. */
    static char[] actions(long seed, int n) {
        char[] out = new char[n];
        long s = seed;
        int i = 0;
        while (i < n) {
            s += 0x9E3779B97F4A7C15L;
            long z = s;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z = z ^ (z >>> 31);
            char c = ACTION_CHARS.charAt((int) Long.remainderUnsigned(z, 6L));
            int run = 1 + (int) ((z >>> 40) & 3L);
            for (int k = 0; k < run && i < n; k++) out[i++] = c;
        }
        return out;
    }

    static Types.ACTIONS toAction(char c) {
        switch (c) {
            case 'U': return Types.ACTIONS.ACTION_UP;
            case 'D': return Types.ACTIONS.ACTION_DOWN;
            case 'L': return Types.ACTIONS.ACTION_LEFT;
            case 'R': return Types.ACTIONS.ACTION_RIGHT;
            case 'S': return Types.ACTIONS.ACTION_USE;
            default: return Types.ACTIONS.ACTION_NIL;
        }
    }

    static long mix(long h, long v) {
        h ^= v;
        h *= 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 32);
    }

    static long nameHash(String s) {
        long h = FNV_OFFSET;
        for (int i = 0; i < s.length(); i++) h = (h ^ (s.charAt(i) & 0xff)) * 0x100000001b3L;
        return h;
    }

    static long milli(double v) {
        return (long) Math.floor(v * 1000.0 + 0.5);
    }

    static Field field(Class<?> c, String name) throws Exception {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    static Method method(Class<?> c, String name, Class<?>... types) throws Exception {
        Method m = c.getDeclaredMethod(name, types);
        m.setAccessible(true);
        return m;
    }

    static void initReflection() throws Exception {
        groupsF = field(Game.class, "spriteGroups");
        endedF = field(Game.class, "isEnded");
        npcCounterF = field(RandomNPC.class, "counter");
        npcPrevF = field(RandomNPC.class, "prevAction");
        spStartF = field(SpawnPoint.class, "start");
        spmStartF = field(SpawnPointMultiSprite.class, "start");
        prepareM = method(Game.class, "prepareGame", Player[].class, int.class, int.class);
        cycleM = method(Game.class, "gameCycle");
    }

    /** The integer fields of one sprite, in canonical order (type name hash first). */
    static long[] spriteFields(VGDLSprite s, Map<Integer, String> names) throws Exception {
        long res = 0L;
        for (Map.Entry<Integer, Integer> e : s.resources.entrySet()) {
            res += mix(mix(FNV_OFFSET, nameHash(names.get(e.getKey()))), (long) (int) e.getValue());
        }
        List<Long> f = new ArrayList<>(Arrays.asList(nameHash(names.get(s.getType())),
                (long) s.rect.x, (long) s.rect.y, milli(s.orientation.x()), milli(s.orientation.y()),
                milli(s.speed), (long) s.healthPoints, (long) s.maxHealthPoints, (long) s.lastmove,
                (long) s.timeToLive, (long) (s.is_disabled() ? 1 : 0), (long) (s.is_from_avatar ? 1 : 0),
                res));
        if (s instanceof Flicker) {
            f.add(1L);
            f.add((long) ((Flicker) s).age);
        } else if (s instanceof SpawnPoint) {
            f.add(2L);
            f.add((long) ((SpawnPoint) s).counter);
            f.add((long) spStartF.getInt(s));
        } else if (s instanceof SpawnPointMultiSprite) {
            f.add(2L);
            f.add((long) ((SpawnPointMultiSprite) s).counter);
            f.add((long) spmStartF.getInt(s));
        } else if (s.getClass() == RandomNPC.class) {
            Direction d = (Direction) npcPrevF.get(s);
            f.add(3L);
            f.add((long) npcCounterF.getInt(s));
            f.add(milli(d.x()));
            f.add(milli(d.y()));
        } else {
            f.add(0L);
        }
        long[] out = new long[f.size()];
        for (int i = 0; i < out.length; i++) out[i] = f.get(i);
        return out;
    }

    static long winnerCode(Types.WINNER w) {
        if (w == Types.WINNER.PLAYER_WINS) return 1L;
        if (w == Types.WINNER.PLAYER_LOSES) return 2L;
        return 0L;
    }

    /** The hash of a state; with `dump`, its text (header, then sorted sprite lines). */
    static long stateHash(Game g, int cycles, Map<Integer, String> names, StringBuilder dump)
            throws Exception {
        SpriteGroup[] groups = (SpriteGroup[]) groupsF.get(g);
        List<Long> hashes = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        for (SpriteGroup sg : groups) {
            if (sg == null) continue;
            for (VGDLSprite s : sg.getSprites()) {
                long[] f = spriteFields(s, names);
                long h = FNV_OFFSET;
                for (long v : f) h = mix(h, v);
                hashes.add(h);
                if (dump != null) {
                    StringBuilder b = new StringBuilder(names.get(s.getType()));
                    for (int i = 1; i < f.length; i++) b.append(' ').append(f[i]);
                    lines.add(b.toString());
                }
            }
        }
        Collections.sort(hashes);
        long score = milli(g.getScore());
        long winner = winnerCode(g.getWinner());
        int ended = endedF.getBoolean(g) ? 1 : 0;
        long h = mix(mix(mix(mix(mix(FNV_OFFSET, cycles), score), winner), ended), hashes.size());
        for (long v : hashes) h = mix(h, v);
        for (int i = 1; i < g.getNoPlayers(); i++) {
            h = mix(mix(h, milli(g.getScore(i))), winnerCode(g.getWinner(i)));
        }
        if (dump != null) {
            Collections.sort(lines);
            dump.append("state ").append(cycles).append(' ').append(score).append(' ').append(winner)
                    .append(' ').append((long) ended).append('\n');
            for (String l : lines) dump.append(l).append('\n');
        }
        return h;
    }

    static Map<Integer, String> typeNames() {
        VGDLRegistry r = VGDLRegistry.GetInstance();
        Map<Integer, String> m = new HashMap<>();
        for (int i = 0; i < r.numSpriteTypes(); i++) m.put(i, r.getRegisteredSpriteKey(i));
        return m;
    }

    /** Play one run and return its result line (without category, game, level, seed). */
    static String run(String gameFile, String levelFile, int seed, int acts, StringBuilder dump)
            throws Exception {
        VGDLFactory.GetInstance().init();
        VGDLRegistry.GetInstance().init();
        // The framework ends a game once its process has logged 25 warnings: count this run's.
        Logger.getInstance().flushMessages();
        Game g = new VGDLParser().parseGame(gameFile);
        g.buildLevel(levelFile, seed);
        char[] a1 = actions(seed, acts);
        char[] a2 = actions(seed + 7919L, acts);
        int n = g.getNoPlayers();
        Player[] players = new Player[n];
        for (int i = 0; i < n; i++) {
            players[i] = new Scripted(a1, a2);
            players[i].setup(null, seed, false);
            players[i].setPlayerID(i);
        }
        prepareM.invoke(g, players, seed, -1);
        Map<Integer, String> names = typeNames();
        String[] cps = new String[CHECKPOINTS.length];
        Arrays.fill(cps, "-");
        int k = 0;
        long h = mix(FNV_OFFSET, stateHash(g, k, names, dump));
        while (!endedF.getBoolean(g) && k < acts) {
            cycleM.invoke(g);
            k++;
            h = mix(h, stateHash(g, k, names, dump));
            for (int i = 0; i < CHECKPOINTS.length; i++) {
                if (CHECKPOINTS[i] == k) cps[i] = String.format("%08x", h & 0xFFFFFFFFL);
            }
        }
        StringBuilder b = new StringBuilder();
        b.append(k).append(' ').append(winnerCode(g.getWinner())).append(' ')
                .append(milli(g.getScore())).append(' ').append(String.format("%016x", h));
        for (String c : cps) b.append(' ').append(c);
        return b.toString();
    }

    /** Games of a category folder: `<game>.txt` with a `<game>_lvl0.txt`, sorted. */
    static List<String> games(File dir) {
        List<String> out = new ArrayList<>();
        String[] files = dir.list();
        if (files == null) return out;
        for (String f : files) {
            if (!f.endsWith(".txt") || f.matches(".*_lvl\\d+\\.txt")) continue;
            String name = f.substring(0, f.length() - 4);
            if (new File(dir, name + "_lvl0.txt").exists()) out.add(name);
        }
        Collections.sort(out);
        return out;
    }

    static String oneLine(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null) c = c.getCause();
        return (c.getClass().getSimpleName() + ": " + c.getMessage()).replaceAll("\\s+", " ");
    }

    /** Play a run twice: a run whose controller overspent its time is played again (up to
     *  five times), and a run whose two plays differ is `unstable` (the framework draws from
     *  an unseeded generator, e.g. WalkerJumper's `Math.random()`). */
    static String runQuietly(String gameFile, String levelFile, int seed, int acts,
            ConsoleSink sink) {
        for (int attempt = 0; ; attempt++) {
            sink.overspent = false;
            String first;
            String second;
            try {
                first = run(gameFile, levelFile, seed, acts, null);
                second = run(gameFile, levelFile, seed, acts, null);
            } catch (Throwable t) {
                return "error " + oneLine(t);
            }
            if (!sink.overspent) return first.equals(second) ? first : "unstable";
            if (attempt >= 4) return "error the controller overspent its time in every attempt";
        }
    }

    public static void main(String[] args) throws Exception {
        initReflection();
        if (args.length > 0 && args[0].equals("--dump")) {
            String base = args[1] + "/" + args[2] + "/";
            int level = Integer.parseInt(args[4]);
            int seed = Integer.parseInt(args[5]);
            int acts = args.length > 6 ? Integer.parseInt(args[6]) : 300;
            StringBuilder dump = new StringBuilder();
            String line = run(base + args[3] + ".txt", base + args[3] + "_lvl" + level + ".txt", seed,
                    acts, dump);
            System.out.print(dump);
            System.out.println("result " + line);
            return;
        }
        File root = new File(args[0]);
        int acts = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        PrintStream progress = System.out;
        ConsoleSink log = new ConsoleSink();
        System.setOut(new PrintStream(log, true));
        System.setErr(new PrintStream(log, true));
        try (PrintWriter w = new PrintWriter(new FileOutputStream(args[1]))) {
            w.println("# GVG-AI (GAIGResearch/GVGAI e58ff65) canonical state traces, by "
                    + "benches/scripts/gvgai_java_traces.sh; format in tests/gvgai_corpus.rs.");
            w.println("# category game level seed cycles winner score1000 hash c1 c5 c20 c50 c100 c200");
            for (String category : new String[] {"gridphysics", "contphysics", "2player"}) {
                File dir = new File(root, category);
                for (String game : games(dir)) {
                    long t0 = System.currentTimeMillis();
                    for (int level = 0; level < 5; level++) {
                        File lf = new File(dir, game + "_lvl" + level + ".txt");
                        if (!lf.exists()) continue;
                        for (int k = 0; k < 3; k++) {
                            int seed = 1000 + 10 * level + k;
                            w.println(category + " " + game + " " + level + " " + seed + " "
                                    + runQuietly(new File(dir, game + ".txt").getPath(), lf.getPath(),
                                            seed, acts, log));
                        }
                    }
                    w.flush();
                    progress.println(category + "/" + game + " " + (System.currentTimeMillis() - t0) + " ms");
                }
            }
        }
        System.exit(0);
    }

    /** A scripted player: the action of cycle t is `acts[t]` (NIL past the end). */
    static class Scripted extends AbstractPlayer {
        final char[] acts;
        final char[] acts2;

        Scripted(char[] acts, char[] acts2) {
            this.acts = acts;
            this.acts2 = acts2;
        }

        char[] mine() {
            return (getPlayerID() == 1 && acts2 != null) ? acts2 : acts;
        }

        public Types.ACTIONS act(StateObservation so, ElapsedCpuTimer t) {
            int k = so.getGameTick();
            char[] m = mine();
            return (k >= 0 && k < m.length) ? toAction(m[k]) : Types.ACTIONS.ACTION_NIL;
        }

        public Types.ACTIONS act(StateObservationMulti so, ElapsedCpuTimer t) {
            int k = so.getGameTick();
            char[] m = mine();
            return (k >= 0 && k < m.length) ? toAction(m[k]) : Types.ACTIONS.ACTION_NIL;
        }
    }

    /** Swallows the framework's console output, noting whether an act overspent its time. */
    static class ConsoleSink extends OutputStream {
        final StringBuilder line = new StringBuilder();
        boolean overspent;

        @Override
        public void write(int b) {
            if (b != '\n') {
                if (line.length() < 200) line.append((char) b);
                return;
            }
            if (line.indexOf("Overspent") >= 0 || line.indexOf("Too long") >= 0) overspent = true;
            line.setLength(0);
        }
    }
}
