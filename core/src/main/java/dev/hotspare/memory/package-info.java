/**
 * The in-memory implementation of every port, the embedded default: member driver (with install, resume and
 * delete times on the injected clock), claim, lock, scheduler, room-status, usage and rollout stores, leader
 * election.
 */
package dev.hotspare.memory;
