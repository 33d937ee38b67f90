/* The slot's network namespace has one interface, its own loopback, which the kernel creates
 * down. Programs that talk to themselves over 127.0.0.1 (a server and its client in one run,
 * multiprocessing's managers) need it up; nothing else is reachable, since no other interface
 * exists, and each slot's loopback is its own, so two runs may bind the same port. */
#include "network.h"

#include "log.h"

#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static void read_flags(int sock, struct ifreq *ifr) {
    if (ioctl(sock, SIOCGIFFLAGS, ifr) < 0)
        die("loopback: read flags of %s: %m", ifr->ifr_name);
}

static void write_flags(int sock, struct ifreq *ifr) {
    if (ioctl(sock, SIOCSIFFLAGS, ifr) < 0)
        die("loopback: bring %s up: %m", ifr->ifr_name);
}

void bring_up_loopback(void) {
    int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (sock < 0)
        die("loopback: socket: %m");
    struct ifreq ifr;
    memset(&ifr, 0, sizeof(ifr));
    strncpy(ifr.ifr_name, "lo", sizeof(ifr.ifr_name) - 1);
    read_flags(sock, &ifr);
    ifr.ifr_flags |= IFF_UP;
    write_flags(sock, &ifr);
    if (close(sock) < 0)
        die("loopback: close: %m");
}
