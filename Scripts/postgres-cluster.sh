#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks: loopback only, trust authentication,
# owned by an unprivileged user (PostgreSQL refuses to run as root).
#
#   Scripts/postgres-cluster.sh start DIR [PORT]   # prints the database URL on stdout
#   Scripts/postgres-cluster.sh stop DIR
set -euo pipefail

action=${1:?start or stop}
dir=${2:?a folder for the cluster}
port=${3:-54329}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL is not installed (apt-get install -y postgresql)" >&2; exit 1; }

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case $action in
start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_owner "$bin/initdb" --pgdata="$dir/data" --username=testledger --auth=trust \
            --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
    fi
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait start \
        -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_connections=200" \
        >/dev/null
    as_owner "$bin/psql" --host=127.0.0.1 --port="$port" --username=testledger --dbname=postgres --quiet \
        --command="SELECT 1 FROM pg_database WHERE datname = 'testledger'" --tuples-only | grep -q 1 ||
        as_owner "$bin/createdb" --host=127.0.0.1 --port="$port" --username=testledger testledger
    echo "postgres://testledger@127.0.0.1:$port/testledger"
    ;;
stop)
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null
    ;;
*)
    echo "usage: $0 start|stop DIR [PORT]" >&2
    exit 2
    ;;
esac
