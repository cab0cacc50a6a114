#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks, run as an unprivileged user.
#   scripts/pg-cluster.sh start DIR   installs PostgreSQL from Debian packages if missing, creates
#                                     a cluster in DIR on a free local port, starts it, prints
#                                     its URL (postgres://berth@127.0.0.1:PORT/berth) and writes it
#                                     to DIR/url
#   scripts/pg-cluster.sh stop DIR    stops the cluster and removes DIR
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [[ -z "$cmd" || -z "$dir" ]]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi

pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    if [[ -x "$d/initdb" ]]; then echo "$d"; return 0; fi
  done
  return 1
}

# Runs a command as the cluster's owner: PostgreSQL refuses to run as root.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    su postgres -s /bin/bash -c "$(printf '%q ' "$@")"
  else
    "$@"
  fi
}

case "$cmd" in
  start)
    if ! pg_bin >/dev/null; then
      echo "pg-cluster: installing PostgreSQL from Debian packages" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >&2
      apt-get install -y -qq --no-install-recommends postgresql >&2
    fi
    bin=$(pg_bin)
    if [[ $(id -u) -eq 0 ]] && ! id postgres >/dev/null 2>&1; then
      useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin postgres
    fi
    mkdir -p "$dir"
    [[ $(id -u) -eq 0 ]] && chown postgres "$dir"
    port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
    # C collation: names sort by code point, as in SQLite (berth's default store).
    as_owner "$bin/initdb" -D "$dir/data" -U berth --auth=trust --encoding=UTF8 --locale=C >/dev/null
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U berth berth
    url="postgres://berth@127.0.0.1:$port/berth"
    echo "$url" > "$dir/url"
    echo "$url"
    ;;
  stop)
    if [[ -d "$dir/data" ]]; then
      bin=$(pg_bin)
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
