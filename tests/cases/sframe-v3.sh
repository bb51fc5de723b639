# SFrame version 3: a hand-built V3 section registered with sframe_register() gives the
# exact chain (every frame checked) through flexible FDEs (the topmost frame's CFA in
# r10 from pt_regs, a DRAP frame's CFA loaded through FP) and a default one, ending at
# the outermost frame (a default FDE without FREs) or at a signal trampoline; a register
# rule in a frame below the topmost ends the walk cleanly; without the outermost mark
# the walk goes on (control); an FRE at the very end of a function (gas writes one) is
# no corruption: the exact chain (atend).
. "$TOP/tests/lib.sh"
before=$(splats)
for c in chain signal regstop through atend; do
	echo "== $c"
	"$BIN/sframe/sfv3" $c 3 || fail "sfv3 $c"
done
no_new_splats "$before"
echo "all V3 cases held"
