"""Renders a `tmux capture-pane -e` capture (256-colour ANSI) as an HTML
page, for a screenshot of what `quintet play` shows in a terminal:

    python3 docs/ansi_to_html.py capture.ansi "title" > capture.html
"""
import re, sys, html
def c256(n):
    n = int(n)
    if n < 16:
        base = [(0,0,0),(205,0,0),(0,205,0),(205,205,0),(0,0,238),(205,0,205),(0,205,205),(229,229,229),(127,127,127),(255,0,0),(0,255,0),(255,255,0),(92,92,255),(255,0,255),(0,255,255),(255,255,255)]
        r,g,b = base[n]
    elif n < 232:
        n -= 16; lv = [0,95,135,175,215,255]
        r,g,b = lv[n//36], lv[(n//6)%6], lv[n%6]
    else:
        v = 8 + (n-232)*10; r=g=b=v
    return f'#{r:02x}{g:02x}{b:02x}'
FG, BG = '#d8d8d8', '#1e1e1e'
out = []
for line in open(sys.argv[1], encoding='utf-8').read().rstrip('\n').split('\n'):
    fg, bg, bold = None, None, False
    parts = re.split(r'\x1b\[([0-9;]*)m', line)
    row = ''
    for i, p in enumerate(parts):
        if i % 2 == 1:
            codes = [c for c in p.split(';') if c != ''] or ['0']
            j = 0
            while j < len(codes):
                c = codes[j]
                if c == '0': fg, bg, bold = None, None, False
                elif c == '1': bold = True
                elif c == '22': bold = False
                elif c == '39': fg = None
                elif c == '49': bg = None
                elif c == '38' and codes[j+1] == '5': fg = c256(codes[j+2]); j += 2
                elif c == '48' and codes[j+1] == '5': bg = c256(codes[j+2]); j += 2
                j += 1
        elif p:
            style = f'color:{fg or FG};' + (f'background:{bg};' if bg else '') + ('font-weight:bold;' if bold else '')
            row += f'<span style="{style}">{html.escape(p)}</span>'
    out.append(row)
title = sys.argv[2] if len(sys.argv) > 2 else ''
print(f'''<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body{{margin:0;background:#2b2b2b;}} .term{{background:{BG};color:{FG};font:15px/19px "DejaVu Sans Mono",monospace;padding:14px 16px;white-space:pre;display:inline-block;border-radius:6px;margin:10px;}} .term span{{display:inline-block;height:19px;vertical-align:top;}}
.bar{{color:#aaa;font:12px sans-serif;margin:10px 10px -6px 14px}}</style></head><body><div class="bar">{html.escape(title)}</div><div class="term">{"<br>".join(out)}</div></body></html>''')
