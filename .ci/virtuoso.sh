#!/usr/bin/env bash
# A private Virtuoso Open Source 7 instance for Assay's remote-store tests (never the system one):
# its own data directory, its own loopback ports, an account "assay" with update rights and a
# random password, and a random DBA password (the package default "dba" is never left in place).
#
#   .ci/virtuoso.sh start DIR HTTP_PORT SQL_PORT   start it, wait until it answers SPARQL, print
#                                                  ASSAY_TEST_VIRTUOSO=http://assay:PASSWORD@127.0.0.1:HTTP_PORT
#   .ci/virtuoso.sh stop DIR                       stop it (by the pid it recorded) and wait
#   .ci/virtuoso.sh bulk-load DIR FILE GRAPH       Virtuoso's own bulk loader (ld_dir + rdf_loader_run)
#                                                  on an N-Triples/Turtle FILE, into GRAPH; for benchmarks
#
# Endpoints under that URL: /sparql (anonymous, read-only), /sparql-auth (Digest, updates),
# /sparql-graph-crud-auth (Graph Store Protocol, Digest). Used by .ci/run and, when that has not
# started one, by test/rdf/helpers/virtuoso.ts.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start DIR HTTP_PORT SQL_PORT | stop DIR" >&2; exit 2; }

case "$cmd" in
start)
  http=${3:?HTTP_PORT}; sql=${4:?SQL_PORT}
  command -v virtuoso-t >/dev/null || { echo "virtuoso-t is not installed (apt-get install virtuoso-opensource)" >&2; exit 3; }
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  vad=/usr/share/virtuoso-opensource-7/vad
  buffers=${ASSAY_VIRTUOSO_BUFFERS:-20000}
  cat >"$dir/virtuoso.ini" <<EOF
[Database]
DatabaseFile = $dir/virtuoso.db
ErrorLogFile = $dir/virtuoso.log
LockFile = $dir/virtuoso.lck
TransactionFile = $dir/virtuoso.trx
xa_persistent_file = $dir/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
MaxCheckpointRemap = 2000
Striping = 0
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = $dir/virtuoso-temp.db
TransactionFile = $dir/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping = 0
[Parameters]
ServerPort = 127.0.0.1:$sql
DisableUnixSocket = 1
DisableTcpSocket = 0
MaxClientConnections = 20
CheckpointInterval = 60
CaseMode = 2
DirsAllowed = ., $dir, $vad
; ~160 MB of buffers by default: enough for the suite, small beside other work on a shared machine
; (a benchmark of tens of millions of triples sets ASSAY_VIRTUOSO_BUFFERS; 8 KB each)
NumberOfBuffers = $buffers
MaxDirtyBuffers = $((buffers * 3 / 4))
ThreadsPerQuery = 2
[HTTPServer]
ServerPort = 127.0.0.1:$http
ServerRoot = /var/lib/virtuoso-opensource-7/vsp
MaxClientConnections = 20
ServerThreads = 20
Charset = UTF-8
EnabledGzipContent = 0
[SPARQL]
; Above Assay's sparql.maxRows (10 000) so the engine never cuts a result Assay caps itself.
ResultSetMaxRows = 1000000
MaxQueryCostEstimationTime = 400
MaxQueryExecutionTime = 120
[Plugins]
LoadPath = /usr/lib/x86_64-linux-gnu/virtuoso-opensource-7/hosting
EOF
  # a directory without a database file gets a fresh database (dba/dba until the setup below)
  fresh=1; [ -f "$dir/virtuoso.db" ] && fresh=0
  (cd "$dir" && exec virtuoso-t +configfile "$dir/virtuoso.ini" +foreground >"$dir/stdout.log" 2>&1) &
  echo $! >"$dir/pid"
  for _ in $(seq 1 240); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$http/sparql?query=ASK%7B%7D" 2>/dev/null; then break; fi
    if ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then echo "virtuoso-t exited while starting; see $dir/virtuoso.log" >&2; tail -20 "$dir/virtuoso.log" >&2 || true; exit 4; fi
    sleep 0.25
  done
  curl -fsS -o /dev/null "http://127.0.0.1:$http/sparql?query=ASK%7B%7D" || { echo "Virtuoso did not answer on port $http within 60 s; see $dir/virtuoso.log" >&2; exit 4; }
  pw=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
  dba=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
  # A fresh database has dba/dba; a reused database keeps the passwords it was given.
  if [ "$fresh" = 0 ] && [ -f "$dir/credentials" ]; then
    pw=$(cat "$dir/credentials")
  else
    isql-vt "127.0.0.1:$sql" dba dba exec="DB.DBA.USER_CREATE('assay', '$pw'); GRANT SPARQL_UPDATE TO \"assay\"; DB.DBA.RDF_DEFAULT_USER_PERMS_SET('assay', 7); DB.DBA.RDF_DEFAULT_USER_PERMS_SET('nobody', 1); USER_SET_PASSWORD('dba', '$dba'); checkpoint;" >"$dir/setup.log" 2>&1 \
      || { echo "could not create the assay account; see $dir/setup.log" >&2; exit 5; }
    # isql goes on past a failed statement and exits 0: check that the new DBA password works (the
    # bulk loader logs in with it) and that the package default no longer does.
    isql-vt "127.0.0.1:$sql" dba "$dba" exec="select 1;" >>"$dir/setup.log" 2>&1 \
      || { echo "the DBA password was not changed; see $dir/setup.log" >&2; exit 5; }
    echo "$pw" >"$dir/credentials"
    echo "$dba" >"$dir/dba-credentials"
    chmod 600 "$dir/credentials" "$dir/dba-credentials"
  fi
  # this start's SQL port (bulk-load logs in through it), also when the directory was used before
  echo "$sql" >"$dir/sql-port"
  echo "ASSAY_TEST_VIRTUOSO=http://assay:$pw@127.0.0.1:$http"
  ;;
stop)
  [ -f "$dir/pid" ] || exit 0
  pid=$(cat "$dir/pid")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 80); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$dir/pid"
  ;;
bulk-load)
  file=${3:?FILE}; graph=${4:?GRAPH}
  [ -f "$dir/dba-credentials" ] || { echo "$dir has no DBA credentials (was it started by this script?)" >&2; exit 2; }
  dir=$(cd "$dir" && pwd)
  mkdir -p "$dir/load"
  name=$(basename "$file")
  # The loader reads only directories listed in DirsAllowed; the instance's own directory is one.
  ln -f "$file" "$dir/load/$name" 2>/dev/null || cp "$file" "$dir/load/$name"
  isql-vt "127.0.0.1:$(cat "$dir/sql-port")" dba "$(cat "$dir/dba-credentials")" \
    exec="ld_dir('$dir/load', '$name', '$graph'); rdf_loader_run(); checkpoint;" >"$dir/bulk-load.log" 2>&1 \
    || { echo "the bulk load failed; see $dir/bulk-load.log" >&2; exit 5; }
  rm -f "$dir/load/$name"
  ;;
*)
  echo "usage: $0 start DIR HTTP_PORT SQL_PORT | stop DIR | bulk-load DIR FILE GRAPH" >&2; exit 2 ;;
esac
