"""Who owns a named pipe, who we are, and a descriptor that admits only us (Windows).

A named pipe's name is public: any process of any account can create
`\\\\.\\pipe\\bua-…` first and wait for the host to connect and send its token.
So the host checks, before sending anything, that the pipe's owner is the
account it runs as; and the app creates the pipe with a protected DACL that
grants access to that account alone.

The Win32 calls sit behind `SecurityApi`, so the decisions are tested on Linux
with a stand-in; `Win32SecurityApi` (ctypes) runs only on Windows.
"""

from __future__ import annotations

import sys
from typing import Any, Protocol


class PipeOwnerMismatch(OSError):
    """The pipe exists but belongs to another account: never send it the token."""


class SecurityApi(Protocol):
    def owner_sid(self, handle: int) -> str:
        """The owner SID (string form, `S-1-5-21-…`) of a kernel object handle."""

    def own_sids(self) -> frozenset[str]:
        """This process's user SID and its token's default owner SID (Administrators when elevated)."""


def check_pipe_owner(handle: int, api: SecurityApi) -> None:
    """Raise PipeOwnerMismatch unless the pipe behind `handle` is owned by this account."""
    owner = api.owner_sid(handle)
    own = api.own_sids()
    if owner not in own:
        raise PipeOwnerMismatch(
            f"the bua pipe is owned by {owner}, not by this account ({', '.join(sorted(own))}); "
            "another account may be squatting its name: the token was not sent")


def owner_only_sddl(user_sid: str) -> str:
    """Owner = the user; a protected DACL with one entry: full access for the user, nobody else."""
    return f"O:{user_sid}D:P(A;;GA;;;{user_sid})"


class Win32SecurityApi:  # pragma: no cover - Windows only
    """ctypes calls into advapi32/kernel32."""

    _ct: Any
    _wt: Any
    _advapi: Any
    _kernel: Any

    def __init__(self) -> None:
        if sys.platform != "win32":
            raise OSError("the Windows security API exists only on Windows")
        import ctypes
        from ctypes import wintypes

        self._ct = ctypes
        self._wt = wintypes
        self._advapi = ctypes.WinDLL("advapi32", use_last_error=True)
        self._kernel = ctypes.WinDLL("kernel32", use_last_error=True)

    def _sid_string(self, psid: Any) -> str:
        text = self._wt.LPWSTR()
        if not self._advapi.ConvertSidToStringSidW(psid, self._ct.byref(text)):
            raise self._ct.WinError(self._ct.get_last_error())
        try:
            return str(text.value)
        finally:
            self._kernel.LocalFree(text)

    def owner_sid(self, handle: int) -> str:
        ct = self._ct
        owner, descriptor = ct.c_void_p(), ct.c_void_p()
        se_kernel_object, owner_information = 6, 1
        status = self._advapi.GetSecurityInfo(ct.c_void_p(handle), se_kernel_object, owner_information,
                                              ct.byref(owner), None, None, None, ct.byref(descriptor))
        if status != 0:
            raise ct.WinError(status)
        try:
            return self._sid_string(owner)
        finally:
            self._kernel.LocalFree(descriptor)

    def _token_sid(self, token: Any, info_class: int) -> str:
        ct = self._ct
        size = self._wt.DWORD()
        self._advapi.GetTokenInformation(token, info_class, None, 0, ct.byref(size))
        buffer = ct.create_string_buffer(size.value)
        if not self._advapi.GetTokenInformation(token, info_class, buffer, size, ct.byref(size)):
            raise ct.WinError(ct.get_last_error())
        return self._sid_string(ct.c_void_p.from_buffer(buffer))  # TOKEN_USER / TOKEN_OWNER start with the PSID

    def own_sids(self) -> frozenset[str]:
        ct = self._ct
        token = self._wt.HANDLE()
        token_query, token_user, token_owner = 0x0008, 1, 4
        if not self._advapi.OpenProcessToken(self._kernel.GetCurrentProcess(), token_query, ct.byref(token)):
            raise ct.WinError(ct.get_last_error())
        try:
            return frozenset({self._token_sid(token, token_user), self._token_sid(token, token_owner)})
        finally:
            self._kernel.CloseHandle(token)

    def user_sid(self) -> str:
        ct = self._ct
        token = self._wt.HANDLE()
        if not self._advapi.OpenProcessToken(self._kernel.GetCurrentProcess(), 0x0008, ct.byref(token)):
            raise ct.WinError(ct.get_last_error())
        try:
            return self._token_sid(token, 1)
        finally:
            self._kernel.CloseHandle(token)

    def security_attributes(self, sddl: str) -> Any:
        """A SECURITY_ATTRIBUTES for `sddl`; keep the returned object alive while handles are created."""
        ct, wt = self._ct, self._wt
        structure: Any = ct.Structure

        class SecurityAttributes(structure):  # type: ignore[misc]  # ctypes is loaded at run time: Any here
            _fields_ = [("nLength", wt.DWORD), ("lpSecurityDescriptor", ct.c_void_p), ("bInheritHandle", wt.BOOL)]

        descriptor = ct.c_void_p()
        sddl_revision_1 = 1
        if not self._advapi.ConvertStringSecurityDescriptorToSecurityDescriptorW(
                sddl, sddl_revision_1, ct.byref(descriptor), None):
            raise ct.WinError(ct.get_last_error())
        return SecurityAttributes(ct.sizeof(SecurityAttributes), descriptor, False)
