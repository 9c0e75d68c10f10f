/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Opening a source of rdma_cm trace events (live through a private ftrace instance, or a
 * saved copy of tracefs), reading it, and the names of processes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <tracefs/tracefs.h>

#include "internal.h"

static __thread char open_err[320];

/* the failure's kind for the caller, and its one line for rdiag_trace_errmsg(NULL) */
static void set_why(enum rdiag_trace_fail *why, enum rdiag_trace_fail w)
{
	if (why)
		*why = w;
}

static void fail_msg(enum rdiag_trace_fail w, const char *dir, const char *inst, int err)
{
	switch (w) {
	case RDIAG_TRACE_OK:
		open_err[0] = 0;
		break;
	case RDIAG_TRACE_NO_TRACEFS:
		if (dir)
			snprintf(open_err, sizeof(open_err), "no tracefs at '%s'", dir);
		else
			snprintf(open_err, sizeof(open_err), "tracefs is not mounted");
		break;
	case RDIAG_TRACE_NO_PERMISSION:
		snprintf(open_err, sizeof(open_err), "no permission to use tracefs at '%s'", dir);
		break;
	case RDIAG_TRACE_NO_EVENTS:
		snprintf(open_err, sizeof(open_err), "no rdma_cma events in '%s/events'", dir);
		break;
	case RDIAG_TRACE_INSTANCE:
		snprintf(open_err, sizeof(open_err), "cannot set up the ftrace instance '%s': %s",
			 inst, strerror(-err));
		break;
	case RDIAG_TRACE_FORMAT:
		snprintf(open_err, sizeof(open_err), "cannot parse the event formats in '%s': %s",
			 dir, strerror(-err));
		break;
	}
}

const char *rdiag_trace_errmsg(const struct rdiag_trace *t)
{
	return t ? t->err : open_err;
}

static struct rdiag_trace *trace_alloc(void)
{
	return calloc(1, sizeof(struct rdiag_trace));
}

/* tracefs's mount point: tracefs itself, or debugfs's tracing directory */
static int find_tracefs(char *out, size_t len)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *m;
	int found = 0;

	if (!f)
		return -errno;
	while ((m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "tracefs") && (!found || !strcmp(m->mnt_dir, "/sys/kernel/tracing"))) {
			snprintf(out, len, "%s", m->mnt_dir);
			found = 2;
		} else if (found < 2 && !strcmp(m->mnt_type, "debugfs")) {
			char p[PATH_MAX];
			struct stat st;

			snprintf(p, sizeof(p), "%s/tracing/events", m->mnt_dir);
			if (stat(p, &st) == 0) {
				snprintf(out, len, "%s/tracing", m->mnt_dir);
				found = 1;
			}
		}
	}
	endmntent(f);
	return found ? 0 : -ENOENT;
}

static int stale_cb(const char *name, void *ctx)
{
	struct rdiag_trace *t = ctx;
	char path[PATH_MAX], tail;
	int pid;

	if (sscanf(name, "rdmadiag-%d%c", &pid, &tail) != 1 || pid <= 0 || pid == getpid())
		return 0;
	if (kill(pid, 0) == 0 || errno != ESRCH)
		return 0;
	snprintf(path, sizeof(path), "%s/instances/%s", t->tracefs, name);
	if (rmdir(path) == 0)
		t->stale++;
	return 0;
}

static int open_cpus(struct rdiag_trace *t)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	int i, opened = 0;

	if (n < 1)
		n = 1;
	if (n > 4096)
		n = 4096;
	t->fds = malloc((size_t)n * sizeof(int));
	if (!t->fds)
		return -ENOMEM;
	t->ncpu = (int)n;
	for (i = 0; i < t->ncpu; i++) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/per_cpu/cpu%d/trace_pipe_raw", t->inst_path, i);
		t->fds[i] = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		opened += t->fds[i] >= 0;
	}
	return opened ? 0 : -ENOENT;
}

static int inst_write(struct rdiag_trace *t, const char *file, const char *val)
{
	errno = 0;
	if (tracefs_instance_file_write(t->inst, file, val) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

static int trace_open(struct rdiag_trace **tp, const struct rdiag_trace_opts *o,
		      enum rdiag_trace_fail *why, char *dir, char *inst)
{
	struct rdiag_trace_opts def = { 0 };
	struct rdiag_trace *t;
	char p[PATH_MAX], kb[32];
	struct stat st;
	int err;

	*tp = NULL;
	set_why(why, RDIAG_TRACE_OK);
	if (!o)
		o = &def;
	t = trace_alloc();
	if (!t)
		return -ENOMEM;
	if (o->tracefs && strlen(o->tracefs) >= sizeof(t->tracefs)) {
		free(t);
		return -ENAMETOOLONG;
	}
	if (o->tracefs)
		snprintf(t->tracefs, sizeof(t->tracefs), "%s", o->tracefs);
	else if (find_tracefs(t->tracefs, sizeof(t->tracefs))) {
		dir[0] = 0;
		set_why(why, RDIAG_TRACE_NO_TRACEFS);
		free(t);
		return -ENOENT;
	}
	snprintf(dir, 2048, "%s", t->tracefs);
	snprintf(p, sizeof(p), "%s/events", t->tracefs);
	if (stat(p, &st)) {
		err = -errno;
		set_why(why, err == -EACCES ? RDIAG_TRACE_NO_PERMISSION : RDIAG_TRACE_NO_TRACEFS);
		free(t);
		return err == -EACCES ? err : -ENOENT;
	}
	snprintf(p, sizeof(p), "%s/events/rdma_cma", t->tracefs);
	if (stat(p, &st)) {
		err = -errno;
		set_why(why, err == -EACCES ? RDIAG_TRACE_NO_PERMISSION : RDIAG_TRACE_NO_EVENTS);
		free(t);
		return err == -EACCES ? err : -ENODEV;
	}
	snprintf(p, sizeof(p), "%s/instances", t->tracefs);
	if (access(p, W_OK | X_OK)) {
		set_why(why, RDIAG_TRACE_NO_PERMISSION);
		free(t);
		return -EACCES;
	}
	tracefs_set_tracing_dir(t->tracefs);
	tracefs_instances_walk(stale_cb, t);
	err = rd_trace_load_formats(t, t->tracefs, o->with_ib_mad);
	if (err) {
		set_why(why, err == -ENODEV ? RDIAG_TRACE_NO_EVENTS :
			err == -EACCES ? RDIAG_TRACE_NO_PERMISSION : RDIAG_TRACE_FORMAT);
		rdiag_trace_close(t);
		return err;
	}
	if (o->instance)
		snprintf(t->instance, sizeof(t->instance), "%s", o->instance);
	else
		snprintf(t->instance, sizeof(t->instance), "rdmadiag-%d", (int)getpid());
	snprintf(inst, 64, "%s", t->instance);
	snprintf(t->inst_path, sizeof(t->inst_path), "%s/instances/%s", t->tracefs, t->instance);
	/* an instance of that name already there is another run's (or another user's): leave it */
	if (tracefs_instance_exists(t->instance)) {
		t->inst_path[0] = 0;
		set_why(why, RDIAG_TRACE_INSTANCE);
		rdiag_trace_close(t);
		return -EEXIST;
	}
	t->inst = tracefs_instance_create(t->instance);
	if (!t->inst) {
		err = errno ? -errno : -EIO;
		t->inst_path[0] = 0;
		set_why(why, err == -EACCES || err == -EPERM ? RDIAG_TRACE_NO_PERMISSION :
			RDIAG_TRACE_INSTANCE);
		rdiag_trace_close(t);
		return err;
	}
	snprintf(kb, sizeof(kb), "%zu", o->buffer_kb ? o->buffer_kb : 1024);
	err = inst_write(t, "buffer_size_kb", kb);
	if (!err)
		err = inst_write(t, "trace_clock", "mono");
	/* poll() on trace_pipe_raw wakes at the first event, not when the buffer is half full
	 * (kernels before 5.1 have no buffer_percent: rdiag_trace_wait's timeout covers them) */
	if (!err)
		inst_write(t, "buffer_percent", "0");
	if (!err && tracefs_event_enable(t->inst, "rdma_cma", NULL))
		err = errno ? -errno : -EIO;
	if (!err) {
		snprintf(p, sizeof(p), "%s/events/ib_cma", t->inst_path);
		if (stat(p, &st) == 0 && tracefs_event_enable(t->inst, "ib_cma", NULL))
			err = errno ? -errno : -EIO;
	}
	if (!err && o->with_ib_mad) {
		snprintf(p, sizeof(p), "%s/events/ib_mad", t->inst_path);
		if (stat(p, &st) == 0 && tracefs_event_enable(t->inst, "ib_mad", NULL))
			err = errno ? -errno : -EIO;
	}
	if (!err)
		err = open_cpus(t);
	if (!err && tracefs_trace_on(t->inst))
		err = errno ? -errno : -EIO;
	if (err) {
		set_why(why, RDIAG_TRACE_INSTANCE);
		rdiag_trace_close(t);
		return err;
	}
	*tp = t;
	return 0;
}

static int trace_open_dir(struct rdiag_trace **tp, const char *dir, enum rdiag_trace_fail *why)
{
	struct rdiag_trace *t;
	char p[PATH_MAX];
	int err;

	*tp = NULL;
	set_why(why, RDIAG_TRACE_OK);
	if (!dir || strlen(dir) >= sizeof(t->tracefs))
		return -ENAMETOOLONG;
	t = trace_alloc();
	if (!t)
		return -ENOMEM;
	t->offline = 1;
	snprintf(t->tracefs, sizeof(t->tracefs), "%s", dir);
	err = rd_trace_load_formats(t, dir, 1);
	if (err) {
		set_why(why, err == -ENODEV ? RDIAG_TRACE_NO_EVENTS : RDIAG_TRACE_FORMAT);
		rdiag_trace_close(t);
		return err;
	}
	snprintf(p, sizeof(p), "%s/saved_cmdlines", dir);
	rd_trace_load_cmdlines(t, p);
	*tp = t;
	return 0;
}

int rdiag_trace_open(struct rdiag_trace **tp, const struct rdiag_trace_opts *o,
		     enum rdiag_trace_fail *why)
{
	enum rdiag_trace_fail w = RDIAG_TRACE_OK;
	char dir[2048] = "", inst[64] = "";
	int err = trace_open(tp, o, &w, dir, inst);

	fail_msg(err ? w : RDIAG_TRACE_OK, dir[0] ? dir : NULL, inst, err);
	set_why(why, w);
	return err;
}

int rdiag_trace_open_dir(struct rdiag_trace **tp, const char *dir, enum rdiag_trace_fail *why)
{
	enum rdiag_trace_fail w = RDIAG_TRACE_OK;
	int err = trace_open_dir(tp, dir, &w);

	fail_msg(err ? w : RDIAG_TRACE_OK, dir ? dir : "", "", err);
	set_why(why, w);
	return err;
}

void rdiag_trace_remove_instance(struct rdiag_trace *t)
{
	int i;

	if (!t)
		return;
	if (t->fds)
		for (i = 0; i < t->ncpu; i++)
			if (t->fds[i] >= 0) {
				close(t->fds[i]);
				t->fds[i] = -1;
			}
	if (t->inst_path[0] && rmdir(t->inst_path) == 0)
		t->inst_path[0] = 0;
}

void rdiag_trace_close(struct rdiag_trace *t)
{
	size_t i;

	if (!t)
		return;
	if (t->inst && t->inst_path[0])
		tracefs_trace_off(t->inst);
	rdiag_trace_remove_instance(t);
	if (t->inst && t->inst_path[0] && tracefs_instance_destroy(t->inst) == 0)
		t->inst_path[0] = 0;
	if (t->inst)
		tracefs_instance_free(t->inst);
	free(t->fds);
	for (i = 0; i < t->nevents; i++)
		free(t->events[i]);
	if (t->kbuf)
		kbuffer_free(t->kbuf);
	if (t->tep)
		tep_free(t->tep);
	free(t->page);
	free(t->batch);
	free(t);
}

const char *rdiag_trace_tracefs(const struct rdiag_trace *t) { return t->tracefs; }
const char *rdiag_trace_instance(const struct rdiag_trace *t) { return t->instance; }
size_t rdiag_trace_nevents(const struct rdiag_trace *t) { return t->nevents; }
const char *rdiag_trace_event_at(const struct rdiag_trace *t, size_t i)
{
	return i < t->nevents ? t->events[i] : NULL;
}
size_t rdiag_trace_nmissing(const struct rdiag_trace *t) { return t->nmissing; }
const char *rdiag_trace_missing_at(const struct rdiag_trace *t, size_t i)
{
	return i < t->nmissing ? t->missing[i] : NULL;
}
size_t rdiag_trace_stale_removed(const struct rdiag_trace *t) { return t->stale; }

/* offline: every dir/per_cpu/cpuN/trace_pipe_raw, whole sub-buffers */
static int offline_read(struct rdiag_trace *t, uint64_t *lost)
{
	char p[PATH_MAX];
	int cpu, err = 0, missed;

	for (cpu = 0; cpu < 4096 && !err; cpu++) {
		char *buf;
		size_t len, off;

		snprintf(p, sizeof(p), "%s/per_cpu/cpu%d/trace_pipe_raw", t->tracefs, cpu);
		if (rd_trace_slurp(p, &buf, &len)) {
			if (cpu >= 64)
				break;
			continue;
		}
		for (off = 0; off < len && !err; off += t->subbuf_size) {
			size_t n = len - off < t->subbuf_size ? len - off : t->subbuf_size;

			err = rd_trace_subbuf_collect(t, buf + off, n, cpu, &missed);
			if (err == -EINVAL)
				err = 0;	/* a torn or corrupt page: skip it */
			if (lost && missed)
				(*lost)++;
		}
		free(buf);
	}
	return err;
}

int rdiag_trace_read(struct rdiag_trace *t, rdiag_trace_cb cb, void *arg, uint64_t *lost)
{
	int err;

	if (!t || !cb)
		return -EINVAL;
	t->nbatch = 0;
	t->err[0] = 0;
	err = t->offline ? offline_read(t, lost) : rd_trace_live_read(t, lost);
	if (err && err != -EAGAIN) {
		snprintf(t->err, sizeof(t->err), "cannot read the %s: %s",
			 t->offline ? "saved trace" : "instance's trace_pipe_raw", strerror(-err));
		t->nbatch = 0;
		return err;
	}
	return rd_trace_batch_deliver(t, cb, arg);
}
