# User callchains hold user addresses only: hostile sections (SFrame v2 and v3) registered
# with sframe_register(), mutated, taken away and unmapped, while immediate and deferred
# cpu-clock events sample a thread that enters the kernel on made-up frames (kernel
# addresses copied from the samples among their return addresses): no value at or
# above the user address limit in any user callchain or deferred record
# (tests/prog/sframe/sfstress.c). 20 s; 10 s on the debug kernel.
. "$TOP/tests/lib.sh"
secs=$(per_flavour 20 10)
exec "$BIN/sframe/sfstress" $secs
