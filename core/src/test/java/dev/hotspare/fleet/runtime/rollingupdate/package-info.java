/** Rolling updates and rollbacks: new majors, what a rollback restored, maxSurge as a share or a number of rooms. */
package dev.hotspare.fleet.runtime.rollingupdate;
