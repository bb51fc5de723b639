# SFrame: dlclose/dlopen of two libraries at changing addresses, 3000 times (debug: 300): the exact
# chain every time (no stale sections), no registry entry or slab memory left behind
. "$TOP/tests/lib.sh"
before=$(splats)
# KASAN's quarantine holds freed objects (counted as slab): only the registry count is exact
if dmesg 2>/dev/null | grep -q KernelAddressSanitizer; then
	export SF_NO_SLAB_CHECK="KASAN quarantine"
fi
# 300 rounds on the debug kernel (CI time)
rounds=$(per_flavour 3000 300)
"$BIN/sframe/sfchain" dlloop $rounds || exit 1
no_new_splats "$before"
