/* A board's serial console for the capture test: runs a command with a
 * pseudo-terminal standing for the serial device and writes a file into it
 * in small pieces, as a board prints.
 *
 *   pty_feed [--hangup] FILE -- COMMAND [ARG...]
 *
 * An ARG "@PTY@" is replaced by the terminal's path. The terminal is in raw
 * mode before the command starts (nothing is held back by line editing
 * while the command opens it). FILE is written 256 bytes at a time, 1 ms
 * apart, from 200 ms after the start. Then, with --hangup, the terminal's
 * other end is closed at once (the board went away: the command reads EIO);
 * without it, it stays open until the command ends. Exit status: the
 * command's, or 125 when this program fails. */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static int fail(const char *what)
{
    perror(what);
    return 125;
}

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    int i = 1, hangup = 0;
    if (i < argc && !strcmp(argv[i], "--hangup")) {
        hangup = 1;
        i++;
    }
    if (argc - i < 3 || strcmp(argv[i + 1], "--") != 0) {
        fprintf(stderr, "usage: pty_feed [--hangup] FILE -- COMMAND [ARG...]\n");
        return 125;
    }
    FILE *in = fopen(argv[i], "rb");
    if (!in)
        return fail(argv[i]);
    char **cmd = argv + i + 2;
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0)
        return fail("posix_openpt");
    char *name = ptsname(m);
    if (!name)
        return fail("ptsname");
    int s = open(name, O_RDWR | O_NOCTTY);
    struct termios t;
    if (s < 0 || tcgetattr(s, &t) != 0)
        return fail(name);
    t.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
    t.c_oflag &= ~(tcflag_t)OPOST;
    t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t.c_cflag = (t.c_cflag & ~(tcflag_t)(CSIZE | PARENB)) | CS8;
    if (tcsetattr(s, TCSANOW, &t) != 0)
        return fail("tcsetattr");
    for (char **a = cmd; *a; a++)
        if (!strcmp(*a, "@PTY@"))
            *a = name;
    pid_t pid = fork();
    if (pid < 0)
        return fail("fork");
    if (pid == 0) {
        close(m);
        close(s);
        execvp(cmd[0], cmd);
        perror(cmd[0]);
        _exit(125);
    }
    /* Ours closed: the command's open of the device is the one that counts
     * when the master end goes away. */
    close(s);
    /* Never blocked on a full terminal: a command that has stopped reading
     * (done, or failed) must not keep this program waiting. */
    fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK);
    pause_ms(200);
    char chunk[256];
    size_t n;
    int status, reaped = 0;
    while (!reaped && (n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        for (size_t off = 0; off < n && !reaped;) {
            ssize_t w = write(m, chunk + off, n - off);
            if (w > 0) {
                off += (size_t)w;
                continue;
            }
            reaped = waitpid(pid, &status, WNOHANG) == pid;
            pause_ms(1);
        }
        pause_ms(1);
    }
    fclose(in);
    if (hangup) {
        pause_ms(100);
        close(m);
    }
    if (!reaped && waitpid(pid, &status, 0) != pid)
        return fail("waitpid");
    if (!hangup)
        close(m);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 125;
}
