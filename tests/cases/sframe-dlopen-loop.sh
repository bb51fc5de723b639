# SFrame: dlclose/dlopen of two libraries at changing addresses, 3000 times: the exact
# chain every time (no stale sections), no registry entry or slab memory left behind
. "$TOP/tests/lib.sh"
before=$(splats)
# KASAN's quarantine holds freed objects (counted as slab): only the registry count is exact
if dmesg 2>/dev/null | grep -q KernelAddressSanitizer; then
	export SF_NO_SLAB_CHECK="KASAN quarantine"
fi
"$BIN/sframe/sfchain" dlloop 3000 || exit 1
no_new_splats "$before"
