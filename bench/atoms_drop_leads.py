#!/usr/bin/env python3
"""Atoms match records: the material each side keeps after the drop phase.

Replays the first 22 moves (the drops of the default 11 atoms each) of
every game in a `quintet match --record` file, applies the removal after
the last drop (an atom with no enemy among its 8 neighbours goes), and
prints the mean lead of ENGINE after it, with W-D-L per lead and how
many of those games ended with a smaller lead (the final position's
atoms) than the drops left.

    python3 bench/atoms_drop_leads.py RECORDS ENGINE
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from records import opening_moves, read_record  # noqa: E402

def cell(s): return (ord(s[0])-97, int(s[1:])-1)
if len(sys.argv) != 3:
    sys.exit(__doc__)
path,me_name=sys.argv[1],sys.argv[2]
c=collections.Counter(); n=0; tot=0
for f in read_record(path)[1]:
    allm=opening_moves(f)+f['moves'].split()
    board={}
    for i,m in enumerate(allm[:22]): board[cell(m)]=i%2
    def enemy(c,s):
        x,y=c
        return any(board.get((x+dx,y+dy))==1-s for dx in (-1,0,1) for dy in (-1,0,1) if (dx,dy)!=(0,0))
    after={c:s for c,s in board.items() if enemy(c,s)}
    w=sum(1 for s in after.values() if s==0); b=len(after)-w
    me=0 if f['p1']==me_name else 1
    d=(w-b) if me==0 else (b-w)
    r=f['result']; res='D' if r=='draw' else ('W' if (r=='p1win')==(me==0) else 'L')
    final=f['final'].split()[0]
    fd=final.count('w')-final.count('b')
    if me==1: fd=-fd
    k=max(-2,min(2,d)); c[(k,res)]+=1; n+=1; tot+=d
    if fd<d: c[(k,'less')]+=1
print(path, 'games',n,'mean lead after the drops %.2f'%(tot/n))
for k in range(-2,3):
    print(' lead',k, ' '.join('%s %d'%(r,c[(k,r)]) for r in 'WDL'), ' ended with less', c[(k,'less')])
