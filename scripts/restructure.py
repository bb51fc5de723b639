#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Rewrite a patch series as a new one with the same final tree.

Every line the series adds to the final tree, and every base line it deletes,
is given to exactly one patch of the new series: by default the new patch
that takes the old commit which (by git blame) added it, else what the
override file says.  Patch k of the new series is then the base tree plus
the lines given to patches 1..k, minus the base lines deleted by them.  No
line is added and later removed (no churn), and the last patch gives the
final tree exactly.

  restructure.py PLAN OVERRIDES REPO BASE FINAL OUTDIR [MSGDIR]

PLAN: one line per new patch, "tag old,old,... subject" ("-": none); "== name" starts a
series.  OLD numbers are the 1-based positions of the old commits in
BASE..FINAL.  OVERRIDES (a file, or a directory of them): "path first[-last]
tag" on lines of the final file (a file's base lines to delete: "path
del:first[-last] tag" on base lines); of two files that give one line a
tag, the later (by name) wins.
RS_ANNOTATE=path prints that final file with the tag of each line (deleted
base lines as "-"), RS_SHOW=path:tag the file as it is after patch tag.
OUTDIR is a worktree checked out at BASE: the new commits go there, with the
message in MSGDIR/TAG where there is one.
"""
import os
import subprocess
import sys


def git(repo, *args, text=True):
    return subprocess.run(['git', '-C', repo] + list(args), check=True,
                          capture_output=True, text=text).stdout


def read_plan(path):
    plan, series = [], None
    for line in open(path):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('#'):
            continue
        if line.startswith('=='):
            series = line[2:].strip()
            continue
        tag, olds, subject = line.split(None, 2)
        old = [int(x) for x in olds.split(',') if x and x != '-']
        plan.append((tag, old, subject, series))
    return plan


def blame(repo, rev_range, path, reverse=False):
    """Per line of the annotated file: (sha, line number in the base or -1)."""
    args = ['blame', '-p']
    if reverse:
        args.append('--reverse')
    out = git(repo, *args, rev_range, '--', path).split('\n')
    res, i = [], 0
    while i < len(out):
        hdr = out[i].split()
        if len(hdr) < 3 or len(hdr[0]) != 40:
            i += 1
            continue
        sha, orig = hdr[0], int(hdr[1])
        i += 1
        while not out[i].startswith('\t'):
            i += 1
        res.append((sha, orig))
        i += 1
    return res


def main():
    plan_f, over_f, repo, base, final, outdir = sys.argv[1:7]
    msgdir = sys.argv[7] if len(sys.argv) > 7 else None
    plan = read_plan(plan_f)
    order = {tag: n for n, (tag, _, _, _) in enumerate(plan, 1)}
    commits = git(repo, 'rev-list', '--reverse',
                  f'{base}..{final}').split()
    index = {sha: n for n, sha in enumerate(commits, 1)}
    old2new = {}
    for tag, olds, _, _ in plan:
        for o in olds:
            if o in old2new:
                sys.exit(f'old commit {o} in two patches')
            old2new[o] = order[tag]
    missing = set(range(1, len(commits) + 1)) - set(old2new)
    if missing:
        sys.exit(f'old commits in no patch: {sorted(missing)}')
    final_sha = git(repo, 'rev-parse', final).strip()
    base_sha = git(repo, 'rev-parse', base).strip()

    over = {}
    over_files = [over_f]
    if os.path.isdir(over_f):
        over_files = sorted(os.path.join(over_f, f) for f in os.listdir(over_f)
                            if not f.startswith('.') and not f.endswith('~'))
    lines = []
    for f in over_files:
        for n, line in enumerate(open(f), 1):
            lines.append((f'{f}:{n}', line))
    for where, line in lines:
        line = line.split('#')[0].split()
        if not line:
            continue
        path, rng, tag = line
        kind = 'add'
        if rng.startswith('del:'):
            kind, rng = 'del', rng[4:]
        a, _, b = rng.partition('-')
        if tag not in order:
            sys.exit(f'override: no patch {tag}')
        for n in range(int(a), int(b or a) + 1):
            over[(path, kind, n)] = order[tag]

    files = {}
    for path in git(repo, 'diff', '--name-only', base, final).split():
        fin = git(repo, 'show', f'{final}:{path}').split('\n')
        try:
            bas = git(repo, 'show', f'{base}:{path}').split('\n')
        except subprocess.CalledProcessError:
            bas = None
        fwd = blame(repo, f'{base}..{final}', path)
        if len(fwd) + 1 != len(fin):
            sys.exit(f'{path}: blame {len(fwd)} lines, file {len(fin)}')
        items = []      # (text, add label, delete label)
        nbase = len(bas) - 1 if bas is not None else 0
        dele = {}
        if bas is not None:
            rev = blame(repo, f'{base}..{final}', path, reverse=True)
            for n, (sha, _) in enumerate(rev, 1):
                if sha == final_sha:
                    continue
                d = index.get(sha, 0) + 1
                dele[n] = over.get((path, 'del', n), old2new[d])
        # A base line no final line comes from is deleted even where the
        # reverse blame lost it (deleted and added again): by the patch
        # that adds the final lines of its gap.
        anchors = {orig for sha, orig in fwd if sha == base_sha}
        gap_label, last = {}, 0
        for n, (sha, orig) in enumerate(fwd, 1):
            if sha == base_sha:
                last = orig
            else:
                lab = over.get((path, 'add', n), old2new[index[sha]])
                gap_label[last] = min(gap_label.get(last, lab), lab)
        last = 0
        for n in range(1, nbase + 1):
            if n in anchors:
                dele.pop(n, None)
                last = n
            elif n not in dele:
                dele[n] = over.get((path, 'del', n), gap_label.get(last, 1))
        nxt = 1

        def flush_deleted():
            nonlocal nxt
            while nxt <= nbase and nxt in dele:
                items.append((bas[nxt - 1], 0, dele[nxt]))
                nxt += 1
        flush_deleted()
        for n, (sha, orig) in enumerate(fwd, 1):
            if sha == base_sha:
                if orig != nxt:
                    sys.exit(f'{path}:{n}: base line {orig}, expected {nxt}')
                items.append((fin[n - 1], 0, 1 << 30))
                nxt += 1
                flush_deleted()
            else:
                lab = over.get((path, 'add', n), old2new[index[sha]])
                items.append((fin[n - 1], lab, 1 << 30))
        if nxt != nbase + 1:
            sys.exit(f'{path}: base lines left from {nxt}')
        show = os.environ.get('RS_SHOW', '').split(':')
        if show[0] == path:
            k = order[show[1]]
            for t, a, d in items:
                if a <= k and d > k:
                    print(t)
            sys.exit(0)
        if os.environ.get('RS_ANNOTATE') == path:
            tags = {n: t for t, n in order.items()}
            fl = 0
            for t, a, d in items:
                if a or d == 1 << 30:
                    fl += 1
                    print(f'{fl:5} {tags.get(a, "base"):7} {t}')
                else:
                    print(f'    - {tags.get(d, "?"):7} {t}')
            sys.exit(0)
        mode = git(repo, 'ls-tree', final, path).split()[0]
        files[path] = (items, bas is not None, mode, fin[-1] == '')

    prev = {}
    for k, (tag, _, subject, series) in enumerate(plan, 1):
        for path, (items, in_base, mode, nl) in files.items():
            lines = [t for t, a, d in items if a <= k and d > k]
            exists = in_base or any(a and a <= k for _, a, _ in items)
            body = '\n'.join(lines) + ('\n' if nl and lines else '')
            state = body if exists else None
            if prev.get(path, 'unset') == state:
                continue
            prev[path] = state
            dst = os.path.join(outdir, path)
            if state is None:
                if os.path.exists(dst):
                    os.unlink(dst)
                continue
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, 'w') as f:
                f.write(state)
            os.chmod(dst, 0o755 if mode == '100755' else 0o644)
        git(outdir, 'add', '-A', '-f')
        msg = os.path.join(msgdir or '/nonexistent', tag)
        args = ['-c', 'user.name=deferred-unwind',
                '-c', 'user.email=deferred-unwind@invalid', 'commit', '-q',
                '--allow-empty', '-s']
        if os.path.exists(msg):
            args += ['-F', msg]
        else:
            args += ['-m', f'{subject}\n\n[{tag}] {series}']
        git(outdir, *args)
    left = git(outdir, 'diff', '--stat', 'HEAD', final_sha)
    if left:
        sys.exit('final tree differs:\n' + left)


if __name__ == '__main__':
    main()
