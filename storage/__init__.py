"""Persistence: the only package that speaks SQL."""
