/* Which optional peer libraries the four peer sources (lockfree.c,
 * queue_peers.c and their C++ halves) look for. Each is built where its
 * headers are found, unless the build leaves them all out
 * (RTIPC_BENCH_PEERS=OFF defines BENCH_NO_PEERS), or a check of the build
 * (scripts/check-builds.sh) asks for one alone with BENCH_ONLY_PEER_<NAME>. */
#ifndef BENCH_PEERS_WANTED_H
#define BENCH_PEERS_WANTED_H

#if defined(BENCH_ONLY_PEER_CK) || defined(BENCH_ONLY_PEER_BOOST) || defined(BENCH_ONLY_PEER_ATOMIC_QUEUE) || \
    defined(BENCH_ONLY_PEER_RWQ) || defined(BENCH_ONLY_PEER_CQ) || defined(BENCH_ONLY_PEER_URCU)
#define BENCH_ONLY_ONE_PEER 1
#endif

#if defined(__has_include) && !defined(BENCH_NO_PEERS)
#define BENCH_PEERS_LOOKED_FOR 1
#if !defined(BENCH_ONLY_ONE_PEER) || defined(BENCH_ONLY_PEER_CK)
#define BENCH_LOOK_CK 1
#endif
#if !defined(BENCH_ONLY_ONE_PEER) || defined(BENCH_ONLY_PEER_BOOST)
#define BENCH_LOOK_BOOST 1
#endif
#if !defined(BENCH_ONLY_ONE_PEER) || defined(BENCH_ONLY_PEER_ATOMIC_QUEUE)
#define BENCH_LOOK_ATOMIC_QUEUE 1
#endif
#if !defined(BENCH_ONLY_ONE_PEER) || defined(BENCH_ONLY_PEER_RWQ)
#define BENCH_LOOK_RWQ 1
#endif
#if !defined(BENCH_ONLY_ONE_PEER) || defined(BENCH_ONLY_PEER_CQ)
#define BENCH_LOOK_CQ 1
#endif
#if !defined(BENCH_ONLY_ONE_PEER) || defined(BENCH_ONLY_PEER_URCU)
#define BENCH_LOOK_URCU 1
#endif
#endif

#endif
