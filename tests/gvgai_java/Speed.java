// Forward-model speed of the GVG-AI Java framework, for comparison with benches/gvgai_forward.rs
// (tablero's own code; it only calls the public GVG-AI API):
//   java -cp <gvgai-classes>:. Speed GAME_FILE LEVEL_FILE
// Copies the initial state and advances it with random available actions, 100 steps per copy
// (restarting from the root when a game ends), for 5 s after a 2 s warm-up.
import java.util.ArrayList;
import java.util.Random;

import core.game.Game;
import core.game.StateObservation;
import core.vgdl.VGDLFactory;
import core.vgdl.VGDLParser;
import core.vgdl.VGDLRegistry;
import ontology.Types;

public class Speed {
    public static void main(String[] args) {
        VGDLFactory.GetInstance().init();
        VGDLRegistry.GetInstance().init();
        Game g = new VGDLParser().parseGame(args[0]);
        g.buildLevel(args[1], 1);
        StateObservation root = g.getObservation();
        ArrayList<Types.ACTIONS> actions = root.getAvailableActions();
        Random rnd = new Random(9);
        for (int phase = 0; phase < 2; phase++) {
            long end = System.nanoTime() + (phase == 0 ? 2_000_000_000L : 5_000_000_000L);
            long steps = 0;
            long start = System.nanoTime();
            while (System.nanoTime() < end) {
                StateObservation st = root.copy();
                for (int i = 0; i < 100; i++) {
                    if (st.isGameOver()) st = root.copy();
                    st.advance(actions.get(rnd.nextInt(actions.size())));
                    steps++;
                }
            }
            double secs = (System.nanoTime() - start) / 1e9;
            if (phase == 1) System.out.printf("%.0f advances/s%n", steps / secs);
        }
    }
}
