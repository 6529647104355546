// Differential-testing driver for tablero's GVG-AI engine (tablero's own code; it only calls
// the public GVG-AI framework API). Compile against a GVG-AI build:
//   javac -cp <gvgai-classes> Driver.java && java -cp <gvgai-classes>:. Driver GAME LEVEL SEED ACTIONS
// Prints one line per act() — "tick score x y" — then "END win score tick".
import core.game.Game;
import core.game.StateObservation;
import core.player.AbstractPlayer;
import core.player.Player;
import core.vgdl.VGDLFactory;
import core.vgdl.VGDLParser;
import core.vgdl.VGDLRegistry;
import ontology.Types;
import tools.ElapsedCpuTimer;
import tools.Vector2d;

public class Driver {
    static class Scripted extends AbstractPlayer {
        final String actions;
        int next = 0;
        final StringBuilder trace;

        Scripted(String actions, StringBuilder trace) {
            this.actions = actions;
            this.trace = trace;
        }

        @Override
        public Types.ACTIONS act(StateObservation so, ElapsedCpuTimer timer) {
            Vector2d p = so.getAvatarPosition();
            trace.append(so.getGameTick()).append(' ').append(so.getGameScore()).append(' ')
                 .append((int) p.x).append(' ').append((int) p.y).append('\n');
            char c = next < actions.length() ? actions.charAt(next) : 'N';
            next++;
            switch (c) {
                case 'U': return Types.ACTIONS.ACTION_UP;
                case 'D': return Types.ACTIONS.ACTION_DOWN;
                case 'L': return Types.ACTIONS.ACTION_LEFT;
                case 'R': return Types.ACTIONS.ACTION_RIGHT;
                case 'S': return Types.ACTIONS.ACTION_USE;
                default: return Types.ACTIONS.ACTION_NIL;
            }
        }
    }

    public static void main(String[] args) {
        VGDLFactory.GetInstance().init();
        VGDLRegistry.GetInstance().init();
        int seed = Integer.parseInt(args[2]);
        Game g = new VGDLParser().parseGame(args[0]);
        g.buildLevel(args[1], seed);
        StringBuilder trace = new StringBuilder();
        Scripted p = new Scripted(args.length > 3 ? args[3] : "", trace);
        p.setup(null, seed, false);
        double[] r = g.runGame(new Player[] {p}, seed);
        System.out.print(trace);
        System.out.println("END " + (g.getWinner() == Types.WINNER.PLAYER_WINS) + " " + r[0] + " " + g.getGameTick());
    }
}
