"""Fault tests: database faults, crashes, a second process, a stuck drawing
worker, hostile timing. Each test reproduces a failure seen in the field."""
