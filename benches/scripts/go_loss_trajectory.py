"""Score trajectory of Go games: replays each SGF through GNU Go (`loadsgf FILE N`,
`estimate_score`) after every move and prints the estimated margin from tablero's side
(tablero is the engine whose PB/PW names tablero), one line per game; writes all trajectories
as JSON to the file named by $TRAJ_OUT (default traj.json). Used to find where lost games
were lost. Usage: python3 go_loss_trajectory.py GAME.sgf...
"""
import subprocess,sys,re,json,os
def gtp(p,cmd):
    p.stdin.write(cmd+"\n"); p.stdin.flush()
    out=[]
    while True:
        l=p.stdout.readline()
        if l.strip()=="" and out: break
        if l.strip()=="": continue
        out.append(l.strip())
    return " ".join(out)
def score_val(s):
    # "= W+3.5 (upper bound: ...)" -> black margin
    m=re.search(r'([BW])\+([\d.]+)',s)
    if not m: return 0.0
    v=float(m.group(2)); return v if m.group(1)=='B' else -v
res=[]
files=sys.argv[1:]
p=subprocess.Popen(["/usr/games/gnugo","--mode","gtp","--chinese-rules","--level","8"],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True)
for f in files:
    t=open(f).read()
    tab_black = re.search(r'PB\[[^\]]*tablero', t) is not None
    rez=re.search(r'RE\[([^\]]*)\]',t).group(1)
    moves=re.findall(r';([BW])\[([a-z]*)\]',t)
    n=len(moves)
    gtp(p,"komi 7")
    traj=[]
    for k in range(1,n+2):
        r=gtp(p,f"loadsgf {f} {k}")
        s=gtp(p,"estimate_score")
        v=score_val(s)
        traj.append(v if tab_black else -v)
    res.append({"file":f,"tab_black":tab_black,"result":rez,"moves":n,"traj":traj})
    print(f, "tab=B" if tab_black else "tab=W", rez, " ".join(f"{x:.0f}" for x in traj), flush=True)
json.dump(res,open(os.environ.get("TRAJ_OUT","traj.json"),"w"))
