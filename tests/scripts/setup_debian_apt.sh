#!/bin/sh
# scripts/setup-debian runs apt-get with DEBIAN_FRONTEND=noninteractive,
# through sudo too: sudo resets the environment (env_reset), so the
# variable must be on its command line. Stubs on PATH stand for dpkg-query
# (nothing installed), id, sudo (which resets the environment as sudo
# does) and apt-get (which writes down what it got); nothing is installed.
set -eu
. "$(dirname "$0")/lib.sh"
W=$XRLM_TEST_WORK
mkdir -p "$W/bin"
printf '#!/bin/sh\nexit 1\n' >"$W/bin/dpkg-query"
printf '#!/bin/sh\ncat "%s/uid"\n' "$W" >"$W/bin/id"
cat >"$W/bin/sudo" <<EOF
#!/bin/sh
echo sudo >>"$W/calls"
exec env -i PATH="\$PATH" "\$@"
EOF
cat >"$W/bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$1 DEBIAN_FRONTEND=\${DEBIAN_FRONTEND-unset}" >>"$W/calls"
EOF
chmod +x "$W/bin/dpkg-query" "$W/bin/id" "$W/bin/sudo" "$W/bin/apt-get"
unset DEBIAN_FRONTEND

for uid in 1000 0; do
	echo $uid >"$W/uid"
	rm -f "$W/calls"
	PATH="$W/bin:$PATH" sh "$XRLM_TEST_SOURCE/scripts/setup-debian" >"$W/log" 2>&1 ||
		fail "uid $uid: setup-debian failed: $(cat "$W/log")"
	if [ $uid -eq 0 ]; then want="apt-get update DEBIAN_FRONTEND=noninteractive
apt-get install DEBIAN_FRONTEND=noninteractive"
	else want="sudo
apt-get update DEBIAN_FRONTEND=noninteractive
sudo
apt-get install DEBIAN_FRONTEND=noninteractive"
	fi
	[ "$(cat "$W/calls")" = "$want" ] || fail "uid $uid: the calls were
$(cat "$W/calls")
not
$want"
done
echo "-- setup-debian gives apt-get DEBIAN_FRONTEND=noninteractive, through sudo too"
