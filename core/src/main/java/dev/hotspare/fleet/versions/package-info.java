/**
 * Scheduler versions ({@code vMAJOR.MINOR}) and the config diff that decides whether a change is major (rooms
 * are replaced) or minor.
 */
package dev.hotspare.fleet.versions;
